// Refs never cross tenants, on both databases: refs/read_batch and the expand_columns of
// calls/query and calls/stream_query read every hop of a ref (the ref itself, each table ref it
// walks through) only in a project the caller may read. One it may not read answers exactly as a
// missing one: the same request before and after the other tenant writes what it names (digests
// are content hashes, so they can be known in advance) gets the same answer, which holds none of
// the secret. The same walks resolve for a caller who may read the project.
import { expect, it } from 'vitest';
import { digestOfValue, loadCatalogue, tableDigest, WeftError } from '@weft/core';
import type * as T from '@weft/types';
import { createStore } from '../../src/create-store.ts';
import type { Store } from '../../src/store.ts';
import { describeEachDialect } from '../dialects.ts';

const catalogue = await loadCatalogue();
const SECRET = 'launch-on-friday';
const SECRET_ROW = { plan: SECRET };
const SECRET_OBJ = { plan: SECRET };
const started_at = '2026-01-01T00:00:00.000Z';

/** A caller who may read the projects of one entity, as the server's authorization decides. */
const memberOf = (entity: string, user: string) => ({ user, source: undefined, mayRead: (p: string) => p.startsWith(`${entity}/`) });
const alice = memberOf('acme', 'alice');
const bob = memberOf('globex', 'bob');
const anyone = { user: 'root', source: undefined, mayRead: () => true };
type Caller = typeof alice;

/** What refs/read_batch answers: the values, or the error's status, type and reason. */
async function readBatch(store: Store, refs: string[], who: Caller): Promise<unknown> {
  try {
    return (await store.refsReadBatch({ refs }, who)).vals;
  } catch (err) {
    if (!(err instanceof WeftError)) throw err;
    return { status: err.status, body: err.toBody() };
  }
}

async function streamed(store: Store, req: T.CallsStreamQueryReq, who: Caller): Promise<T.CallSchema[]> {
  const out: T.CallSchema[] = [];
  for await (const call of (await store.callsStreamQuery(req, who)) as AsyncIterable<T.CallSchema>) out.push(call);
  return out;
}

describeEachDialect('refs across projects', (getDb) => {
  it("answers a walk into another tenant's table, object or call exactly as a missing one", async () => {
    const store = createStore({ db: getDb(), catalogue });
    // acme's secrets, named before they exist.
    const secretRow = digestOfValue(SECRET_ROW);
    const secretTable = `weave:///acme/secret/table/${tableDigest([secretRow])}`;
    const secretObj = `weave:///acme/secret/object/plan:${digestOfValue(SECRET_OBJ)}`;
    const secretCall = 'weave:///acme/secret/call/0197331c-8b0e-7c3a-9f5e-2d41c7a0b6e1';

    // bob's own data: a table of another of his projects (readable) whose row holds acme's table
    // ref, and an object holding acme's table ref at several depths.
    const own = await store.tableCreate({ table: { project_id: 'globex/other', rows: [{ t: secretTable, mine: 1 }] } }, bob);
    const ownTable = `weave:///globex/other/table/${own.digest}`;
    const ds = await store.objCreate(
      { obj: { project_id: 'globex/mine', object_id: 'ds', val: { rows: secretTable, nested: { deeper: [secretTable] }, own: ownTable } } },
      bob,
    );
    const base = `weave:///globex/mine/object/ds:${ds.digest}`;
    const walks = [
      `${base}/attr/rows/id/${secretRow}`,
      `${base}/attr/nested/key/deeper/index/0/id/${secretRow}`,
      // The first hop is bob's (another of his projects), the second acme's.
      `${base}/attr/own/id/${own.row_digests[0]}/key/t/id/${secretRow}`,
      // The top-level ref itself (the server refuses it with 403 before the store is asked).
      secretObj,
      `${secretObj}/key/plan`,
      secretCall,
    ];
    await store.callStart(
      {
        start: {
          project_id: 'globex/mine',
          op_name: 'eval',
          started_at,
          attributes: {},
          inputs: { a: walks[0], b: walks[1], c: walks[2] },
        },
      },
      bob,
    );
    const expandReq = { project_id: 'globex/mine', expand_columns: ['inputs.a', 'inputs.b', 'inputs.c'] };
    const answers = async () => ({
      reads: await Promise.all(walks.map((ref) => readBatch(store, [ref], bob))),
      query: (await store.callsQuery(expandReq, bob)).calls,
      stream: await streamed(store, expandReq, bob),
    });

    const missing = await answers();
    for (const read of missing.reads) expect(read).toMatchObject({ status: 404, body: { error_type: 'NotFoundError' } });
    expect(missing.query.map((c) => c.inputs)).toEqual([{ a: walks[0], b: walks[1], c: walks[2] }]);
    expect(missing.stream).toEqual(missing.query);

    // acme writes what bob's refs name.
    const table = await store.tableCreate({ table: { project_id: 'acme/secret', rows: [SECRET_ROW] } }, alice);
    expect(`weave:///acme/secret/table/${table.digest}`).toBe(secretTable);
    const obj = await store.objCreate({ obj: { project_id: 'acme/secret', object_id: 'plan', val: SECRET_OBJ } }, alice);
    expect(`weave:///acme/secret/object/plan:${obj.digest}`).toBe(secretObj);
    await store.callStart(
      {
        start: {
          project_id: 'acme/secret',
          id: secretCall.split('/').pop(),
          op_name: 'plan',
          started_at,
          attributes: {},
          inputs: SECRET_OBJ,
        },
      },
      alice,
    );

    const present = await answers();
    expect(present).toEqual(missing);
    expect(JSON.stringify(present)).not.toContain(SECRET);

    // The same refs resolve for a caller who may read acme: the data is there, only bob may not read it.
    expect(await readBatch(store, walks, anyone)).toMatchObject([
      SECRET_ROW,
      SECRET_ROW,
      SECRET_ROW,
      SECRET_OBJ,
      SECRET,
      { inputs: SECRET_OBJ },
    ]);
    expect((await store.callsQuery(expandReq, anyone)).calls[0]!.inputs).toEqual({ a: SECRET_ROW, b: SECRET_ROW, c: SECRET_ROW });
  });

  it("resolves the same walks within the caller's entity, across its projects", async () => {
    const store = createStore({ db: getDb(), catalogue });
    // alice's table in one project of acme, named from an object and a call of another.
    const table = await store.tableCreate({ table: { project_id: 'acme/data', rows: [{ q: 'refund?' }, { q: 'reset?' }] } }, alice);
    const tableRef = `weave:///acme/data/table/${table.digest}`;
    const ds = await store.objCreate(
      { obj: { project_id: 'acme/evals', object_id: 'ds', val: { rows: tableRef, nested: { deeper: [tableRef] } } } },
      alice,
    );
    const base = `weave:///acme/evals/object/ds:${ds.digest}`;
    const row = table.row_digests[1]!;
    const walks = [`${base}/attr/rows/id/${row}`, `${base}/attr/nested/key/deeper/index/0/id/${row}/key/q`];
    expect(await readBatch(store, walks, alice)).toEqual([{ q: 'reset?' }, 'reset?']);

    await store.callStart(
      { start: { project_id: 'acme/evals', op_name: 'eval', started_at, attributes: {}, inputs: { a: walks[0], b: walks[1] } } },
      alice,
    );
    const expandReq = { project_id: 'acme/evals', expand_columns: ['inputs.a', 'inputs.b'] };
    const expected = [{ a: { q: 'reset?' }, b: 'reset?' }];
    expect((await store.callsQuery(expandReq, alice)).calls.map((c) => c.inputs)).toEqual(expected);
    expect((await streamed(store, expandReq, alice)).map((c) => c.inputs)).toEqual(expected);
  });
});
