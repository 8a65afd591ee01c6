// Cases of the file operations: create (multipart/form-data), content (bytes).
import type { WeftClient } from '@weft/client';
import { invalid, type ExtraInit, type OperationCase } from './case-types.ts';

/** A multipart form as the Weave SDK sends it; a part left undefined is left out. */
export function fileForm(fields: { project_id?: string; file?: string }): FormData {
  const form = new FormData();
  if (fields.project_id !== undefined) form.append('project_id', fields.project_id);
  if (fields.file !== undefined) form.append('file', new Blob([fields.file]), 'blob');
  return form;
}

/**
 * POST /file/create with a hand-built form (the client's fileCreate cannot leave a part out). The
 * serializer sends the form; the `body` placeholder is only there because openapi-fetch calls the
 * serializer when a body is given.
 */
const postForm = (api: WeftClient, form: FormData, extra?: ExtraInit, path: '/file/create' | '/files/create' = '/file/create') =>
  api.POST(path, { body: {} as never, bodySerializer: () => form, ...extra });

export const fileCases = {
  fileCreate: {
    tenancy: 'project',
    request: (api, c, extra) => postForm(api, fileForm({ project_id: c.projectId, file: `contract ${c.unique('file')}\n` }), extra),
    valid: (api, c) => api.fileCreate({ project_id: c.projectId, file: `contract ${c.unique('file')}\n` }),
    invalid: [
      { name: 'a missing file part', loc: ['body', 'file'], send: (api, c) => postForm(api, fileForm({ project_id: c.projectId })) },
      {
        name: 'a project_id that is not <entity>/<project>',
        loc: ['body', 'project_id'],
        send: (api) => postForm(api, fileForm({ project_id: 'no-slash', file: 'x' })),
      },
    ],
  },

  fileContent: {
    tenancy: 'project',
    request: (api, c, extra) => api.POST('/file/content', { body: { project_id: c.projectId, digest: c.unique('digest') }, ...extra }),
    async valid(api, c) {
      const { digest } = await api.fileCreate({ project_id: c.projectId, file: 'hello world\n' });
      return api.fileContent({ project_id: c.projectId, digest });
    },
    invalid: [
      {
        name: 'a missing digest',
        loc: ['body', 'digest'],
        send: (api, c) => api.POST('/file/content', { body: invalid({ project_id: c.projectId }) }),
      },
      {
        name: 'a number as digest',
        loc: ['body', 'digest'],
        send: (api, c) => api.POST('/file/content', { body: invalid({ project_id: c.projectId, digest: 42 }) }),
      },
    ],
  },

  // The Weave Python SDK's paths for the same two operations.
  filesCreate: {
    tenancy: 'project',
    request: (api, c, extra) =>
      postForm(api, fileForm({ project_id: c.projectId, file: `contract ${c.unique('file')}\n` }), extra, '/files/create'),
    invalid: [
      {
        name: 'a missing file part',
        loc: ['body', 'file'],
        send: (api, c) => postForm(api, fileForm({ project_id: c.projectId }), undefined, '/files/create'),
      },
    ],
  },

  filesContent: {
    tenancy: 'project',
    request: (api, c, extra) => api.POST('/files/content', { body: { project_id: c.projectId, digest: c.unique('digest') }, ...extra }),
    async valid(api, c) {
      const { digest } = await api.fileCreate({ project_id: c.projectId, file: 'hello world\n' });
      return api.POST('/files/content', { body: { project_id: c.projectId, digest }, parseAs: 'arrayBuffer' });
    },
    invalid: [
      {
        name: 'a missing digest',
        loc: ['body', 'digest'],
        send: (api, c) => api.POST('/files/content', { body: invalid({ project_id: c.projectId }) }),
      },
    ],
  },
} satisfies Record<string, OperationCase>;
