// For the move tests: a project written through the API with every kind of stored JSON sent as raw
// text, keys out of order and numbers spelt oddly (`1.0`, `1e2`, `-0.0`, `1E-5`), and the raw
// answer bodies of every operation that reads it back, to compare between databases byte for byte.
import type { TestServer } from './test-server.ts';

export const PROJECT = 'acme/moves';
export const FILE_BYTES = Uint8Array.from({ length: 300 }, (_, i) => (i * 13) % 256);
const CALLS = ['0190a000-0000-7000-8000-000000000001', '0190a000-0000-7000-8000-000000000002'];
const MODEL = { entity: null, project: 'moves', name: 'agent', base_model: 'Qwen/Qwen3-8B', return_existing: true };

const basic = (server: TestServer) => `Basic ${Buffer.from(`api:${server.aliceKey}`).toString('base64')}`;
const bearer = (server: TestServer) => `Bearer ${server.aliceKey}`;

/** The answer's body as sent: JSON as text, anything else as base64. Throws unless it is a 200. */
async function send(server: TestServer, method: string, path: string, body?: string, auth = basic(server)): Promise<string> {
  const res = await fetch(server.url + path, {
    method,
    headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body,
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  const text = /^application\/(json|jsonl|x-ndjson)/.test(res.headers.get('content-type') ?? '')
    ? bytes.toString('utf8')
    : `base64:${bytes.toString('base64')}`;
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text;
}

export interface Written {
  tableDigest: string;
  fileDigest: string;
}

/** Writes the project; answers the digests the reads need. */
export async function writeProject(server: TestServer): Promise<Written> {
  const p = PROJECT;
  const post = (path: string, body: string) => send(server, 'POST', path, body);
  await post(
    '/obj/create',
    `{"obj":{"project_id":"${p}","object_id":"cfg","val":{"zz":1,"aa":{"y":1.0,"b":1e2,"m":[{"k2":-0.0,"k1":1E-5}]},"mid":"x"}}}`,
  );
  const table = await post(
    '/table/create',
    `{"table":{"project_id":"${p}","rows":[{"zz":1,"aa":2.50,"o":{"z":1.0,"a":[2e0,{"q":1,"b":2}]}},{"zz":3,"aa":0.5e1,"o":{"z":-0.0,"a":[]}}]}}`,
  );
  for (const [i, id] of CALLS.entries()) {
    await post(
      '/call/start',
      `{"start":{"project_id":"${p}","id":"${id}","trace_id":"0190a000-0000-7000-8000-0000000000ff","op_name":"weave:///${p}/op/step:abc",` +
        `"started_at":"2025-03-0${i + 1}T00:00:00.000Z","attributes":{"zz":{"y":1,"b":2},"aa":[1.0,1e2]},` +
        `"inputs":{"zz":1,"aa":2,"n":1.0,"e":1e2,"nested":{"z":-0.0,"a":${i + 1}E-5}}}}`,
    );
    await post(
      '/call/end',
      `{"end":{"project_id":"${p}","id":"${id}","ended_at":"2025-03-0${i + 1}T00:00:01.500Z","output":{"zz":"out","aa":[{"y":2.50,"b":null}]},` +
        `"summary":{"usage":{"gpt-4o":{"requests":1,"prompt_tokens":10,"completion_tokens":2}},"zz":1,"aa":1.0}}}`,
    );
  }
  await post(
    '/feedback/create',
    `{"project_id":"${p}","weave_ref":"weave:///${p}/call/${CALLS[0]}","feedback_type":"review","payload":{"zz":"note","aa":{"y":1.0,"b":1e2}}}`,
  );
  await post(
    '/feedback/create',
    `{"project_id":"${p}","weave_ref":"weave:///${p}/call/${CALLS[1]}","feedback_type":"custom","payload":{"score":0.50,"by":{"zz":1,"aa":2}}}`,
  );
  await post(
    '/cost/create',
    `{"project_id":"${p}","costs":{"gpt-4o":{"prompt_token_cost":2.5E-6,"completion_token_cost":1.0e-5,"effective_date":"2000-01-01T00:00:00Z"}},"wb_user_id":null}`,
  );
  await post(
    '/annotation_queues',
    `{"project_id":"${p}","name":"review","description":"d","scorer_refs":["weave:///${p}/object/zz:1","weave:///${p}/object/aa:2"]}`,
  );
  const file = await server.client('alice').fileCreate({ project_id: p, file: FILE_BYTES });

  const art = (method: string, path: string, body?: string) => send(server, method, path, body, bearer(server));
  const model = JSON.parse(await art('POST', '/v1/preview/models', JSON.stringify(MODEL))) as { id: string };
  for (const split of ['train', 'val']) {
    await art(
      'POST',
      `/v1/preview/models/${model.id}/log`,
      `{"model_id":"${model.id}","split":"${split}","trajectory_groups":[{"trajectories":[` +
        `{"reward":1.0,"metrics":{"zz":1,"aa":2.50},"messages_and_choices":[{"role":"user","content":"${split}"}],"metadata":{"zz":"m","aa":1e2}},` +
        `{"reward":0.5e0,"messages_and_choices":[{"role":"user","content":"t"},{"role":"assistant","content":"u"}]}],"metrics":{"zz":3,"aa":1.0}}]}`,
    );
  }
  await art('POST', `/v1/preview/models/${model.id}/checkpoints`, `{"step":1,"metrics":{"zz_loss":0.50,"aa_acc":1e0}}`);
  return { tableDigest: (JSON.parse(table) as { digest: string }).digest, fileDigest: file.digest };
}

/** Every read of the project: its name, and the answer's bytes (JSON as text, bytes as base64). */
export async function readProject(server: TestServer, { tableDigest, fileDigest }: Written): Promise<Array<[string, string]>> {
  const p = PROJECT;
  const out: Array<[string, string]> = [];
  const read = async (name: string, method: string, path: string, body?: string, auth?: string) => {
    const text = await send(server, method, path, body, auth);
    out.push([name, text]);
    return text;
  };
  const objs = JSON.parse(await read('objs/query', 'POST', '/objs/query', `{"project_id":"${p}"}`)) as {
    objs: { object_id: string; digest: string }[];
  };
  for (const o of objs.objs) {
    await read(`obj/read ${o.object_id}`, 'POST', '/obj/read', `{"project_id":"${p}","object_id":"${o.object_id}","digest":"${o.digest}"}`);
  }
  const tableReads = async (label: string, digest: string, sortField: string) => {
    await read(`table/query ${label}`, 'POST', '/table/query', `{"project_id":"${p}","digest":"${digest}"}`);
    await read(
      `table/query ${label} sorted`,
      'POST',
      '/table/query',
      `{"project_id":"${p}","digest":"${digest}","sort_by":[{"field":"${sortField}","direction":"desc"}]}`,
    );
    await read(`table/query_stats ${label}`, 'POST', '/table/query_stats', `{"project_id":"${p}","digest":"${digest}"}`);
  };
  await tableReads('created', tableDigest, 'o');
  const stream = `{"project_id":"${p}","include_feedback":true,"include_costs":true,"include_storage_size":true,"include_total_storage_size":true`;
  await read('calls/stream_query', 'POST', '/calls/stream_query', `${stream},"sort_by":[{"field":"started_at","direction":"asc"}]}`);
  await read(
    'calls/stream_query by inputs',
    'POST',
    '/calls/stream_query',
    `${stream},"sort_by":[{"field":"inputs.nested","direction":"desc"}]}`,
  );
  await read('calls/query_stats', 'POST', '/calls/query_stats', `{"project_id":"${p}"}`);
  for (const id of CALLS) {
    await read(
      `call/read ${id}`,
      'POST',
      '/call/read',
      `{"project_id":"${p}","id":"${id}","include_costs":true,"include_storage_size":true}`,
    );
  }
  await read('feedback/query', 'POST', '/feedback/query', `{"project_id":"${p}"}`);
  await read('cost/query', 'POST', '/cost/query', `{"project_id":"${p}"}`);
  const queues = await read('annotation_queues/query', 'POST', '/annotation_queues/query', `{"project_id":"${p}"}`);
  for (const q of jsonLines<{ id: string }>(queues))
    await read('annotation queue read', 'GET', `/annotation_queues/${q.id}?project_id=${encodeURIComponent(p)}`);
  await read('file/content', 'POST', '/file/content', `{"project_id":"${p}","digest":"${fileDigest}"}`);

  const auth = bearer(server);
  const models = JSON.parse(await read('models', 'GET', `/v1/preview/models?project=${encodeURIComponent(p)}`, undefined, auth)) as {
    data: { id: string }[];
  };
  for (const m of models.data) {
    const base = `/v1/preview/models/${m.id}`;
    await read('model', 'GET', base, undefined, auth);
    await read('model checkpoints', 'GET', `${base}/checkpoints?limit=100`, undefined, auth);
    for (const split of ['train', 'val']) {
      await read(`model metrics ${split}`, 'GET', `${base}/metrics?split=${split}`, undefined, auth);
      const page = await read(`model trajectories ${split}`, 'GET', `${base}/trajectories?split=${split}&limit=100`, undefined, auth);
      const digest = (JSON.parse(page) as { data: { table_digest: string }[] }).data[0]?.table_digest;
      if (digest) await tableReads(`log ${split}`, digest, 'metrics');
    }
  }
  return out;
}

const jsonLines = <T>(text: string): T[] =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as T);
