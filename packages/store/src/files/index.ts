// Files: content-addressed bytes (op source code, images, audio) referenced from object and call
// values by digest. Stored in the database, once per (project, digest).
import type { StoreOptions } from '../store-options.ts';
import { storeMethods } from '../store.ts';
import { fileContent } from './file-content.ts';
import { fileCreate } from './file-create.ts';

export function fileMethods(opts: Pick<StoreOptions, 'db'>) {
  const { db } = opts;
  return storeMethods({
    fileCreate: (req) => fileCreate(db, req.project_id, req.content, req.expected_digest),
    fileContent: (req) => fileContent(db, req.project_id, req.digest),
  });
}
