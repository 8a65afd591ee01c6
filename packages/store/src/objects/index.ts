// The object operations of the store: versions of named values, with Weave's digests, and their
// tags and aliases.
import type { StoreOptions } from '../store-options.ts';
import { storeMethods } from '../store.ts';
import { aliasesList } from './aliases-list.ts';
import { objAddTags } from './obj-add-tags.ts';
import { objCreate } from './obj-create.ts';
import { objDelete } from './obj-delete.ts';
import { objRead } from './obj-read.ts';
import { objRemoveAliases } from './obj-remove-aliases.ts';
import { objRemoveTags } from './obj-remove-tags.ts';
import { objSetAliases } from './obj-set-aliases.ts';
import { objsQuery } from './objs-query.ts';
import { tagsList } from './tags-list.ts';

export function objectMethods({ db }: Pick<StoreOptions, 'db'>) {
  return storeMethods({
    objCreate: (req, ctx) => objCreate(db, req, ctx),
    objRead: (req, ctx) => objRead(db, req, ctx),
    objDelete: (req, ctx) => objDelete(db, req, ctx),
    objsQuery: (req, ctx) => objsQuery(db, req, ctx),
    objAddTags: (req, ctx) => objAddTags(db, req, ctx),
    objRemoveTags: (req, ctx) => objRemoveTags(db, req, ctx),
    objSetAliases: (req, ctx) => objSetAliases(db, req, ctx),
    objRemoveAliases: (req, ctx) => objRemoveAliases(db, req, ctx),
    tagsList: (req, ctx) => tagsList(db, req, ctx),
    aliasesList: (req, ctx) => aliasesList(db, req, ctx),
  });
}
