// The projects a key can reach (GET /projects, Weft Studio's first page).
import type { StoreOptions } from '../store-options.ts';
import { storeMethods } from '../store.ts';
import { projectsList } from './projects-list.ts';

export function projectMethods({ db }: StoreOptions) {
  return storeMethods({
    projectsList: (req) => projectsList(db, req),
  });
}
