import type { FileContentReq } from '@weft/types';
import { invalidRequest } from '@weft/core';
import { contextOf, requireProject } from '../http/request-context.ts';
import type { Deps, Handlers } from './handler.ts';

export function fileHandlers({ store, auth }: Deps): Handlers {
  return {
    async fileCreate(req, res) {
      const projectId = String((req.body as { project_id?: unknown }).project_id);
      requireProject(auth, req, projectId);
      // The validator's multer puts parts in req.files; the spec names the part `file`.
      const file = (req.files as Express.Multer.File[] | undefined)?.find((f) => f.fieldname === 'file');
      if (!file) throw invalidRequest('multipart part "file" is missing');
      res.json(await store.fileCreate({ project_id: projectId, content: file.buffer }, contextOf(req)));
    },
    async fileContent(req, res) {
      const body = req.body as FileContentReq;
      requireProject(auth, req, body.project_id);
      const bytes = await store.fileContent(body, contextOf(req));
      res.type('application/octet-stream').send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    },
  };
}
