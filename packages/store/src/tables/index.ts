// The table operations of the store: immutable, content-addressed lists of rows.
import type { StoreOptions } from '../create-store.ts';
import type { Store } from '../store.ts';
import { tableCreate } from './table-create.ts';
import { tableQuery } from './table-query.ts';

export function tableMethods({ db }: Pick<StoreOptions, 'db'>): Pick<Store, 'tableCreate' | 'tableQuery'> {
  return {
    tableCreate: (req, ctx) => tableCreate(db, req, ctx),
    tableQuery: (req, ctx) => tableQuery(db, req, ctx),
  };
}
