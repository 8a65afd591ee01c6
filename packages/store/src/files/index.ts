// Files: content-addressed bytes (op source code, images, audio) referenced from object and call
// values by digest. Stored in the database, once per (project, digest).
import type { StoreOptions } from '../create-store.ts';
import type { Store } from '../store.ts';
import { readFileContent } from './file-content.ts';
import { createFile } from './file-create.ts';

export function fileMethods(opts: Pick<StoreOptions, 'db'>): Pick<Store, 'fileCreate' | 'fileContent'> {
  const { db } = opts;
  return {
    fileCreate: (req) => createFile(db, req.project_id, req.content),
    fileContent: (req) => readFileContent(db, req.project_id, req.digest),
  };
}
