// What every resource module of the store is given (create-store.ts hands the same to each). Its
// own file, importing nothing from the resource folders, so a resource module that names it does
// not import the module that composes them all.
import type { Catalogue } from '@weft/core';
import type { Db } from './db/db.ts';

export interface StoreOptions {
  db: Db;
  /** Router catalogue: its prices are the costs of `call/read … include_costs` (after a project's own, cost/create). */
  catalogue: Catalogue;
}
