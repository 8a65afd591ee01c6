// The object operations of the store: versions of named values, with Weave's digests.
import type { StoreOptions } from '../create-store.ts';
import { storeMethods } from '../store.ts';
import { objCreate } from './obj-create.ts';
import { objDelete } from './obj-delete.ts';
import { objRead } from './obj-read.ts';
import { objsQuery } from './objs-query.ts';

export function objectMethods({ db }: Pick<StoreOptions, 'db'>) {
  return storeMethods({
    objCreate: (req, ctx) => objCreate(db, req, ctx),
    objRead: (req, ctx) => objRead(db, req, ctx),
    objDelete: (req, ctx) => objDelete(db, req, ctx),
    objsQuery: (req, ctx) => objsQuery(db, req, ctx),
  });
}
