// Field probes of object reads and queries, tags and aliases (see field-probe.ts). The seeded
// project: `thing` v0 (tagged `reviewed`, alias `prod`) and v1, and an op `say`.
import { answerOf, read, type Ctx, type Probe } from './field-probe.ts';
import type { PythonSdk } from './wire.ts';

async function tagged(sdk: PythonSdk, P: string): Promise<Record<string, string>> {
  const create = async (object_id: string, val: unknown) =>
    ((await read(sdk, '/obj/create', { obj: { project_id: P, object_id, val } })) as { digest: string }).digest;
  const v0 = await create('thing', { _type: 'Model', _class_name: 'Model', _bases: ['Model', 'Object', 'BaseModel'], n: 0 });
  const v1 = await create('thing', { _type: 'Model', _class_name: 'Model', _bases: ['Model', 'Object', 'BaseModel'], n: 1 });
  await create('say', { _type: 'CustomWeaveType', weave_type: { type: 'Op' }, files: {} });
  const put = async (path: string, body: object) => {
    const res = await sdk.put(path, body);
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  };
  await put(`/objs/thing/versions/${v0}/tags`, { project_id: P, tags: ['reviewed'] });
  await put('/objs/thing/aliases', { project_id: P, digest: v0, aliases: ['prod'] });
  return { v0, v1 };
}

const readThing = async (sdk: PythonSdk, ctx: Ctx) =>
  read(sdk, '/obj/read', { project_id: ctx.P, object_id: 'thing', digest: ctx.v0, include_tags_and_aliases: true });
/** ObjAddTagsReq and ObjRemoveTagsReq have the same fields, and the same verdicts. */
const TAG_WRITE_FIELDS: Probe['fields'] = {
  project_id: { required: true },
  object_id: { inPath: true },
  digest: { inPath: true },
  tags: { required: true },
  wb_user_id: { unchanged: 'someone-else', why: 'the server knows the authenticated user' },
};
const tagsPath = (verb: string) => (ctx: Ctx) => `/objs/thing/versions/${ctx.v0}/tags${verb}`;

export const TAG_PROBES: Probe[] = [
  {
    path: '/obj/read',
    model: 'ObjReadReq',
    setup: tagged,
    body: ({ P, v1 }) => ({ project_id: P, object_id: 'thing', digest: v1 }),
    observe: answerOf,
    fields: {
      project_id: { required: true },
      object_id: { required: true },
      digest: { required: true },
      metadata_only: { honoured: true },
      include_tags_and_aliases: { honoured: true },
    },
  },
  {
    path: '/objs/query',
    model: 'ObjQueryReq',
    setup: tagged,
    body: ({ P }) => ({ project_id: P }),
    observe: answerOf,
    fields: {
      project_id: { required: true },
      filter: { honoured: { object_ids: ['say'] } },
      limit: { honoured: 1 },
      offset: { honoured: 1 },
      sort_by: { honoured: [{ field: 'object_id', direction: 'asc' }] },
      metadata_only: { honoured: true },
      include_storage_size: { honoured: true },
      include_tags_and_aliases: { honoured: true },
    },
  },
  {
    path: '/objs/query',
    model: 'ObjectVersionFilter',
    at: ['filter'],
    setup: tagged,
    body: ({ P }) => ({ project_id: P, filter: {}, metadata_only: true }),
    observe: answerOf,
    fields: {
      base_object_classes: { honoured: ['Model'] },
      exclude_base_object_classes: { honoured: ['Model'] },
      leaf_object_classes: { honoured: ['Model'] },
      object_ids: { honoured: ['say'] },
      is_op: { honoured: true },
      latest_only: { honoured: true },
      tags: { honoured: ['reviewed'] },
      aliases: { honoured: ['prod'] },
    },
  },
  {
    path: '/objs/query',
    model: 'SortBy',
    at: ['sort_by', 0],
    setup: tagged,
    body: ({ P }) => ({ project_id: P, sort_by: [{ field: 'object_id', direction: 'asc' }], metadata_only: true }),
    observe: answerOf,
    fields: { field: { required: true }, direction: { required: true } },
  },
  {
    path: tagsPath(''),
    method: 'PUT',
    model: 'ObjAddTagsReq',
    setup: tagged,
    body: ({ P }) => ({ project_id: P, tags: ['gold'] }),
    observe: readThing,
    fields: TAG_WRITE_FIELDS,
  },
  {
    path: tagsPath('/remove'),
    model: 'ObjRemoveTagsReq',
    setup: tagged,
    body: ({ P }) => ({ project_id: P, tags: ['reviewed'] }),
    observe: readThing,
    fields: TAG_WRITE_FIELDS,
  },
  {
    path: '/objs/thing/aliases',
    method: 'PUT',
    model: 'ObjSetAliasesReq',
    setup: tagged,
    body: ({ P, v0 }) => ({ project_id: P, digest: v0, aliases: ['staging'] }),
    observe: readThing,
    fields: {
      project_id: { required: true },
      object_id: { inPath: true },
      digest: { required: true },
      aliases: { required: true },
      wb_user_id: { unchanged: 'someone-else', why: 'the server knows the authenticated user' },
    },
  },
  {
    path: '/objs/thing/aliases/remove',
    model: 'ObjRemoveAliasesReq',
    setup: tagged,
    body: ({ P }) => ({ project_id: P, aliases: ['prod'] }),
    observe: readThing,
    fields: {
      project_id: { required: true },
      object_id: { inPath: true },
      aliases: { required: true },
      wb_user_id: { unchanged: 'someone-else', why: 'the server knows the authenticated user' },
    },
  },
];
