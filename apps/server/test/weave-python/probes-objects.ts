// Field probes of objects, tables, refs and files (see field-probe.ts).
import { answerOf, read, type Ctx, type Probe } from './field-probe.ts';
import type { PythonSdk } from './wire.ts';

const allObjects = async (sdk: PythonSdk, ctx: Ctx) => read(sdk, '/objs/query', { project_id: ctx.P });

async function twoVersions(sdk: PythonSdk, P: string): Promise<Record<string, string>> {
  const v0 = (await read(sdk, '/obj/create', { obj: { project_id: P, object_id: 'thing', val: { n: 0 } } })) as { digest: string };
  await read(sdk, '/obj/create', { obj: { project_id: P, object_id: 'thing', val: { n: 1 } } });
  return { v0: v0.digest };
}

async function threeRows(sdk: PythonSdk, P: string): Promise<Record<string, string>> {
  const made = (await read(sdk, '/table/create', { table: { project_id: P, rows: [{ a: 1 }, { a: 2 }, { a: 3 }] } })) as {
    digest: string;
    row_digests: string[];
  };
  return { table: made.digest, row0: made.row_digests[0]! };
}

export const OBJECT_PROBES: Probe[] = [
  {
    path: '/obj/create',
    model: 'ObjSchemaForInsert',
    at: ['obj'],
    body: ({ P }) => ({ obj: { project_id: P, object_id: 'thing', val: { a: 1 } } }),
    observe: allObjects,
    fields: {
      project_id: { required: true },
      object_id: { required: true },
      val: { required: true },
      builtin_object_class: { refused: 'Model', accepts: null },
      set_base_object_class: { refused: 'Model', accepts: null },
      // The digest of {"a": 1}: any other is a 409 and nothing is stored.
      expected_digest: { honoured: 'not-the-digest' },
      wb_user_id: { unchanged: 'someone-else', why: 'the server records the authenticated user' },
    },
  },
  {
    path: '/obj/delete',
    model: 'ObjDeleteReq',
    setup: twoVersions,
    body: ({ P }) => ({ project_id: P, object_id: 'thing' }),
    observe: allObjects,
    fields: {
      project_id: { required: true },
      object_id: { required: true },
      digests: { honoured: ({ v0 }: Ctx) => [v0] },
    },
  },
  {
    path: '/table/create',
    model: 'TableSchemaForInsert',
    at: ['table'],
    body: ({ P }) => ({ table: { project_id: P, rows: [{ a: 1 }] } }),
    observe: answerOf,
    fields: {
      project_id: { required: true },
      rows: { required: true },
      expected_digest: { honoured: 'not-the-digest' },
    },
  },
  {
    path: '/table/query',
    model: 'TableQueryReq',
    setup: threeRows,
    body: ({ P, table }) => ({ project_id: P, digest: table }),
    observe: answerOf,
    fields: {
      project_id: { required: true },
      digest: { required: true },
      filter: { honoured: ({ row0 }: Ctx) => ({ row_digests: [row0] }) },
      limit: { honoured: 1 },
      offset: { honoured: 1 },
      sort_by: { honoured: [{ field: 'a', direction: 'desc' }] },
    },
  },
  {
    path: '/table/query',
    model: 'TableRowFilter',
    at: ['filter'],
    setup: threeRows,
    body: ({ P, table }) => ({ project_id: P, digest: table, filter: {} }),
    observe: answerOf,
    fields: { row_digests: { honoured: ({ row0 }: Ctx) => [row0] } },
  },
  {
    path: '/table/query',
    model: 'SortBy',
    at: ['sort_by', 0],
    setup: threeRows,
    body: ({ P, table }) => ({ project_id: P, digest: table, sort_by: [{ field: 'a', direction: 'asc' }] }),
    observe: answerOf,
    // Weave's SortBy names the order `direction`; the seed's table sort calls it `order` and
    // makes it optional (ascending), so `direction` is honoured rather than required here.
    fields: { field: { required: true }, direction: { honoured: 'desc' } },
  },
  {
    path: '/table/query_stats',
    model: 'TableQueryStatsReq',
    setup: threeRows,
    body: ({ P, table }) => ({ project_id: P, digest: table }),
    observe: answerOf,
    fields: { project_id: { required: true }, digest: { required: true } },
  },
  {
    path: '/table/query_stats_batch',
    model: 'TableQueryStatsBatchReq',
    setup: threeRows,
    body: ({ P }) => ({ project_id: P }),
    observe: answerOf,
    fields: {
      project_id: { required: true },
      digests: { honoured: ({ table }: Ctx) => [table] },
      include_storage_size: { refused: true, accepts: false },
    },
  },
  {
    path: '/table/update',
    model: 'TableUpdateReq',
    setup: threeRows,
    body: ({ P, table }) => ({ project_id: P, base_digest: table, updates: [{ append: { row: { a: 4 } } }] }),
    observe: answerOf,
    fields: { project_id: { required: true }, base_digest: { required: true }, updates: { required: true } },
  },
  {
    path: '/refs/read_batch',
    model: 'RefsReadBatchReq',
    setup: twoVersions,
    body: ({ P, v0 }) => ({ refs: [`weave:///${P}/object/thing:${v0}`] }),
    observe: answerOf,
    fields: { refs: { required: true } },
  },
  {
    path: '/file/content',
    model: 'FileContentReadReq',
    setup: async (sdk, P) => {
      const up = await sdk.upload('/file/create', { project_id: P }, { name: 'obj.py', bytes: new TextEncoder().encode('print(1)\n') });
      return { file: (up.body as { digest: string }).digest };
    },
    body: ({ P, file }) => ({ project_id: P, digest: file }),
    observe: answerOf,
    fields: { project_id: { required: true }, digest: { required: true } },
  },
];
