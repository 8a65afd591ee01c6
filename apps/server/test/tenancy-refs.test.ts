// Refs never cross tenants, over HTTP, for every operation that follows stored refs:
// refs/read_batch (objects, paths into them, table rows, calls) and the expand_columns of
// calls/query and calls/stream_query. bob (globex) plants refs into acme's project in his own
// values, before acme writes what they name (digests are content hashes: they can be known in
// advance), and asks again after: every answer must be byte for byte the one he got while it was
// missing, and hold none of the secret. The same walks within one entity resolve.
import { beforeAll, expect, it } from 'vitest';
import { digestOfValue, tableDigest } from '@weft/core';
import { describeEachDatabase, type TestServer } from './test-server.ts';

const SECRET = 'launch-on-friday';
const SECRET_ROW = { plan: SECRET };
const started_at = '2026-01-01T00:00:00.000Z';
const secretRow = digestOfValue(SECRET_ROW);
const secretTable = `weave:///acme/secret/table/${tableDigest([secretRow])}`;
const secretObj = `weave:///acme/secret/object/plan:${digestOfValue(SECRET_ROW)}`;
const secretCallId = '0197331c-8b0e-7c3a-9f5e-2d41c7a0b6e1';

interface Answer {
  status: number;
  text: string;
}

async function post(server: TestServer, who: 'alice' | 'bob', path: string, body: unknown): Promise<Answer> {
  const key = who === 'alice' ? server.aliceKey : server.bobKey;
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`api:${key}`).toString('base64')}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

async function ok<T>(server: TestServer, who: 'alice' | 'bob', path: string, body: unknown): Promise<T> {
  const answer = await post(server, who, path, body);
  expect(answer.status, answer.text).toBe(200);
  return JSON.parse(answer.text) as T;
}

type Table = { digest: string; row_digests: string[] };
type Obj = { digest: string };

describeEachDatabase('tenancy of stored refs', (getServer) => {
  /** bob's refs into acme, through values of his own projects. */
  const walks: string[] = [];
  /** bob's walk through a table of another of his own projects. */
  let ownWalk = '';

  beforeAll(async () => {
    const s = getServer();
    const own = await ok<Table>(s, 'bob', '/table/create', { table: { project_id: 'globex/other', rows: [{ t: secretTable, mine: 1 }] } });
    const ownTable = `weave:///globex/other/table/${own.digest}`;
    const ds = await ok<Obj>(s, 'bob', '/obj/create', {
      obj: {
        project_id: 'globex/mine',
        object_id: 'ds',
        val: { rows: secretTable, nested: { deeper: [secretTable] }, own: ownTable, obj: secretObj },
      },
    });
    const base = `weave:///globex/mine/object/ds:${ds.digest}`;
    walks.push(
      `${base}/attr/rows/id/${secretRow}`,
      `${base}/attr/nested/key/deeper/index/0/id/${secretRow}`,
      `${base}/attr/own/id/${own.row_digests[0]}/key/t/id/${secretRow}`,
      // An object ref stored in a value is not walked into (Weft follows table refs only).
      `${base}/attr/obj/key/plan`,
    );
    ownWalk = `${base}/attr/own/id/${own.row_digests[0]}/key/mine`;
    await ok(s, 'bob', '/call/start', {
      start: {
        project_id: 'globex/mine',
        id: 'bob-call',
        op_name: 'eval',
        started_at,
        attributes: {},
        inputs: { a: walks[0], b: walks[1], c: walks[2], d: walks[3], e: secretObj, f: `weave:///acme/secret/call/${secretCallId}` },
      },
    });
  });

  /** Everything bob can ask that follows his planted refs. */
  async function bobsAnswers(): Promise<Answer[]> {
    const s = getServer();
    const expand = { project_id: 'globex/mine', expand_columns: ['inputs.a', 'inputs.b', 'inputs.c', 'inputs.d', 'inputs.e', 'inputs.f'] };
    return [
      ...(await Promise.all(walks.map((ref) => post(s, 'bob', '/refs/read_batch', { refs: [ref] })))),
      // With a ref that resolves first: the batch fails as a whole, as with a missing one.
      await post(s, 'bob', '/refs/read_batch', { refs: [ownWalk, walks[0]] }),
      // acme's refs named directly: refused before anything is read.
      await post(s, 'bob', '/refs/read_batch', { refs: [secretObj] }),
      await post(s, 'bob', '/refs/read_batch', { refs: [`weave:///acme/secret/call/${secretCallId}`] }),
      await post(s, 'bob', '/calls/query', expand),
      await post(s, 'bob', '/calls/stream_query', expand),
      await post(s, 'bob', '/calls/query', { ...expand, columns: ['inputs.a', 'inputs.c'] }),
    ];
  }

  it("answers a ref into another tenant's table exactly as a missing one, before and after it exists", async () => {
    const s = getServer();
    const missing = await bobsAnswers();
    const statuses = missing.map((a) => a.status);
    expect(statuses).toEqual([404, 404, 404, 404, 404, 403, 403, 200, 200, 200]);
    for (const answer of missing.slice(0, 5)) expect(JSON.parse(answer.text)).toMatchObject({ error_type: 'NotFoundError' });
    // The expanded columns are answered as stored.
    const [call] = (JSON.parse(missing[7]!.text) as { calls: { inputs: Record<string, string> }[] }).calls;
    expect(Object.values(call!.inputs)).toEqual([...walks, secretObj, `weave:///acme/secret/call/${secretCallId}`]);

    // acme writes what bob's refs name.
    const table = await ok<Table>(s, 'alice', '/table/create', { table: { project_id: 'acme/secret', rows: [SECRET_ROW] } });
    expect(`weave:///acme/secret/table/${table.digest}`).toBe(secretTable);
    const obj = await ok<Obj>(s, 'alice', '/obj/create', { obj: { project_id: 'acme/secret', object_id: 'plan', val: SECRET_ROW } });
    expect(`weave:///acme/secret/object/plan:${obj.digest}`).toBe(secretObj);
    await ok(s, 'alice', '/call/start', {
      start: { project_id: 'acme/secret', id: secretCallId, op_name: 'plan', started_at, attributes: {}, inputs: SECRET_ROW },
    });
    // acme itself reads its secret (the refs above name what is there).
    expect(await ok(s, 'alice', '/refs/read_batch', { refs: [`${secretObj}/key/plan`] })).toEqual({ vals: [SECRET] });

    const present = await bobsAnswers();
    expect(present).toEqual(missing);
    for (const answer of present) expect(answer.text).not.toContain(SECRET);
  });

  it("resolves the same walks within the caller's entity, across its projects", async () => {
    const s = getServer();
    // bob's own hop into another of his projects.
    expect(await ok(s, 'bob', '/refs/read_batch', { refs: [ownWalk] })).toEqual({ vals: [1] });

    // alice: a table of acme/data, named from an object and a call of acme/evals.
    const rows = [{ q: 'refund?' }, { q: 'reset?' }];
    const table = await ok<Table>(s, 'alice', '/table/create', { table: { project_id: 'acme/data', rows } });
    const tableRef = `weave:///acme/data/table/${table.digest}`;
    const ds = await ok<Obj>(s, 'alice', '/obj/create', {
      obj: { project_id: 'acme/evals', object_id: 'ds', val: { rows: tableRef, nested: { deeper: [tableRef] } } },
    });
    const base = `weave:///acme/evals/object/ds:${ds.digest}`;
    const row = table.row_digests[1]!;
    const mine = [`${base}/attr/rows/id/${row}`, `${base}/attr/nested/key/deeper/index/0/id/${row}/key/q`];
    expect(await ok(s, 'alice', '/refs/read_batch', { refs: mine })).toEqual({ vals: [rows[1], 'reset?'] });

    await ok(s, 'alice', '/call/start', {
      start: {
        project_id: 'acme/evals',
        id: 'alice-call',
        op_name: 'eval',
        started_at,
        attributes: {},
        inputs: { a: mine[0], b: mine[1] },
      },
    });
    const expand = { project_id: 'acme/evals', expand_columns: ['inputs.a', 'inputs.b'] };
    const expected = { a: rows[1], b: 'reset?' };
    const queried = await ok<{ calls: { inputs: unknown }[] }>(s, 'alice', '/calls/query', expand);
    expect(queried.calls.map((c) => c.inputs)).toEqual([expected]);
    const streamed = await post(s, 'alice', '/calls/stream_query', expand);
    expect(streamed.status).toBe(200);
    const lines = streamed.text.trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { inputs: unknown }).inputs)).toEqual([expected]);
  });
});
