import { invalidRequest } from '@weft/core';
import { contextOf, requireProject } from '../http/request-context.ts';
import { handlers, type Deps, type Handler } from './handler.ts';

export function fileHandlers({ store, auth }: Deps) {
  const fileCreate: Handler<'fileCreate'> = async ({ body, files, principal }) => {
    requireProject(auth, principal, body.project_id);
    // The spec names the file part `file`.
    const file = files.find((f) => f.fieldname === 'file');
    if (!file) throw invalidRequest('multipart part "file" is missing');
    return store.fileCreate(
      { project_id: body.project_id, content: file.buffer, expected_digest: body.expected_digest },
      contextOf(principal),
    );
  };
  const fileContent: Handler<'fileContent'> = async ({ body, principal }) => {
    requireProject(auth, principal, body.project_id);
    return store.fileContent(body, contextOf(principal));
  };
  // The Weave Python SDK's paths (/files/…) are the same operations.
  return handlers({
    fileCreate,
    fileContent,
    filesCreate: (input, res) => fileCreate(input, res),
    filesContent: (input, res) => fileContent(input, res),
  });
}
