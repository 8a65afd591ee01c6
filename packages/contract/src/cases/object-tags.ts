// Cases of the tag and alias operations of object versions: add/remove tags, set/remove aliases,
// and the project's lists of each.
import type { WeftClient } from '@weft/client';
import { invalid, type CaseContext, type OperationCase } from './case-types.ts';

const createVersion = async (api: WeftClient, c: CaseContext) => {
  const object_id = c.unique('obj');
  const { digest } = await api.POST('/obj/create', { body: { obj: { project_id: c.projectId, object_id, val: { prompt: 'Be brief.' } } } });
  return { object_id, digest };
};

const versionPath = (object_id: string, digest: string) => ({ path: { object_id, digest } });
// A version nobody created: the writes that need a live version answer 404 for it.
const unknownVersion = (c: CaseContext) => versionPath(c.unique('obj'), 'g8xB784Zx14VgRVYOeuKukfyZG0m36nntfFPCR5QrIs');

/** The two ways a project_id query parameter breaks the schema. */
const badProjectQuery = (path: '/tags' | '/aliases') => [
  {
    name: 'a missing project_id query parameter',
    loc: ['query', 'project_id'],
    send: (api: WeftClient) => api.GET(path, { params: invalid({ query: {} }) }),
  },
  {
    name: 'a project_id that is not <entity>/<project>',
    loc: ['query', 'project_id'],
    send: (api: WeftClient) => api.GET(path, { params: { query: { project_id: 'no-slash' } } }),
  },
];

export const objectTagCases = {
  objAddTags: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.PUT('/objs/{object_id}/versions/{digest}/tags', {
        params: unknownVersion(c),
        body: { project_id: c.projectId, tags: ['reviewed'] },
        ...extra,
      }),
    async valid(api, c) {
      const { object_id, digest } = await createVersion(api, c);
      return api.PUT('/objs/{object_id}/versions/{digest}/tags', {
        params: versionPath(object_id, digest),
        body: { project_id: c.projectId, tags: ['reviewed', 'production ready'] },
      });
    },
    invalid: [
      {
        name: 'a tag with a colon',
        loc: ['body', 'tags', '0'],
        send: (api, c) =>
          api.PUT('/objs/{object_id}/versions/{digest}/tags', {
            params: unknownVersion(c),
            body: { project_id: c.projectId, tags: ['env:prod'] },
          }),
      },
      {
        name: 'a missing tags',
        loc: ['body', 'tags'],
        send: (api, c) =>
          api.PUT('/objs/{object_id}/versions/{digest}/tags', { params: unknownVersion(c), body: invalid({ project_id: c.projectId }) }),
      },
    ],
  },

  objRemoveTags: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.POST('/objs/{object_id}/versions/{digest}/tags/remove', {
        params: unknownVersion(c),
        body: { project_id: c.projectId, tags: ['reviewed'] },
        ...extra,
      }),
    invalid: [
      {
        name: 'a string as tags',
        loc: ['body', 'tags'],
        send: (api, c) =>
          api.POST('/objs/{object_id}/versions/{digest}/tags/remove', {
            params: unknownVersion(c),
            body: invalid({ project_id: c.projectId, tags: 'reviewed' }),
          }),
      },
    ],
  },

  objSetAliases: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.PUT('/objs/{object_id}/aliases', {
        params: { path: { object_id: c.unique('obj') } },
        body: { project_id: c.projectId, digest: 'g8xB784Zx14VgRVYOeuKukfyZG0m36nntfFPCR5QrIs', aliases: ['production'] },
        ...extra,
      }),
    async valid(api, c) {
      const { object_id, digest } = await createVersion(api, c);
      return api.PUT('/objs/{object_id}/aliases', {
        params: { path: { object_id } },
        body: { project_id: c.projectId, digest, aliases: ['production'] },
      });
    },
    invalid: [
      {
        name: 'the reserved alias latest',
        loc: ['body', 'aliases', '0'],
        send: (api, c) =>
          api.PUT('/objs/{object_id}/aliases', {
            params: { path: { object_id: c.unique('obj') } },
            body: { project_id: c.projectId, digest: 'd', aliases: ['latest'] },
          }),
      },
      {
        name: 'a missing digest',
        loc: ['body', 'digest'],
        send: (api, c) =>
          api.PUT('/objs/{object_id}/aliases', {
            params: { path: { object_id: c.unique('obj') } },
            body: invalid({ project_id: c.projectId, aliases: ['production'] }),
          }),
      },
    ],
  },

  objRemoveAliases: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.POST('/objs/{object_id}/aliases/remove', {
        params: { path: { object_id: c.unique('obj') } },
        body: { project_id: c.projectId, aliases: ['production'] },
        ...extra,
      }),
    invalid: [
      {
        name: 'a version index as alias',
        loc: ['body', 'aliases', '0'],
        send: (api, c) =>
          api.POST('/objs/{object_id}/aliases/remove', {
            params: { path: { object_id: c.unique('obj') } },
            body: { project_id: c.projectId, aliases: ['v3'] },
          }),
      },
    ],
  },

  tagsList: {
    tenancy: 'project',
    request: (api, c, extra) => api.GET('/tags', { params: { query: { project_id: c.projectId } }, ...extra }),
    invalid: badProjectQuery('/tags'),
  },

  aliasesList: {
    tenancy: 'project',
    request: (api, c, extra) => api.GET('/aliases', { params: { query: { project_id: c.projectId } }, ...extra }),
    invalid: badProjectQuery('/aliases'),
  },
} satisfies Record<string, OperationCase>;
