import { invalidRequest } from '@weft/core';
import { contextOf, requireProject } from '../http/request-context.ts';
import { handlers, type Deps } from './handler.ts';

export function fileHandlers({ store, auth }: Deps) {
  return handlers({
    async fileCreate({ body, files, principal }) {
      requireProject(auth, principal, body.project_id);
      // The spec names the file part `file`.
      const file = files.find((f) => f.fieldname === 'file');
      if (!file) throw invalidRequest('multipart part "file" is missing');
      return store.fileCreate({ project_id: body.project_id, content: file.buffer }, contextOf(principal));
    },
    async fileContent({ body, principal }) {
      requireProject(auth, principal, body.project_id);
      return store.fileContent(body, contextOf(principal));
    },
  });
}
