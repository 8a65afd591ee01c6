// refs/read_batch: objects by digest with Weave's extra paths (attr, key, index, id into a table),
// call refs, and what is not there (404) or not a readable ref (400), on both databases.
import { expect, it } from 'vitest';
import { loadCatalogue } from '@weft/core';
import { createStore } from '../../src/create-store.ts';
import { describeEachDialect } from '../dialects.ts';

const ctx = { user: 'alice', source: undefined, mayRead: (p: string) => p.startsWith('acme/') };
const catalogue = await loadCatalogue();

describeEachDialect('refs read batch', (getDb) => {
  it('reads objects, paths into them, dataset rows and calls, in the order asked', async () => {
    const store = createStore({ db: getDb(), catalogue });
    const p = 'acme/refs';
    const rows = [
      { q: 'reset password?', expected: { steps: [1, 2, 3] } },
      { q: 'refund?', expected: { steps: [] } },
    ];
    const table = await store.tableCreate({ table: { project_id: p, rows } }, ctx);
    const tableRef = `weave:///${p}/table/${table.digest}`;
    const ds = await store.objCreate(
      {
        obj: { project_id: p, object_id: 'questions', val: { _type: 'Dataset', name: 'questions', rows: tableRef, tags: ['a', 'b', 'c'] } },
      },
      ctx,
    );
    const call = await store.callStart(
      { start: { project_id: p, op_name: 'answer', started_at: '2026-01-01T00:00:00.000Z', attributes: {}, inputs: { q: 'x' } } },
      ctx,
    );
    const base = `weave:///${p}/object/questions:${ds.digest}`;
    const { vals } = await store.refsReadBatch(
      {
        refs: [
          `${base}/attr/name`,
          base,
          `${base}/attr/rows/id/${table.row_digests[1]}`,
          `${base}/attr/rows/id/${table.row_digests[0]}/key/expected/key/steps/index/-1`,
          `${base}/attr/tags/index/1`,
          `weave:///${p}/call/${call.id}`,
        ],
      },
      ctx,
    );
    expect(vals.slice(0, 5)).toEqual([
      'questions',
      { _type: 'Dataset', name: 'questions', rows: tableRef, tags: ['a', 'b', 'c'] },
      rows[1],
      3,
      'b',
    ]);
    expect(vals[5]).toMatchObject({ id: call.id, op_name: 'answer', inputs: { q: 'x' } });
    // An escaped key (Weave quotes the path parts).
    const spaced = await store.objCreate({ obj: { project_id: p, object_id: 'spaced', val: { 'a b/c': 1 } } }, ctx);
    expect((await store.refsReadBatch({ refs: [`weave:///${p}/object/spaced:${spaced.digest}/key/a%20b%2Fc`] }, ctx)).vals).toEqual([1]);
  });

  it('answers 404 for what is not there and 400 for what is not a readable ref', async () => {
    const store = createStore({ db: getDb(), catalogue });
    const p = 'acme/refs-missing';
    const table = await store.tableCreate({ table: { project_id: p, rows: [{ a: 1 }] } }, ctx);
    const obj = await store.objCreate(
      { obj: { project_id: p, object_id: 'o', val: { rows: `weave:///${p}/table/${table.digest}`, list: [1], n: 5 } } },
      ctx,
    );
    const base = `weave:///${p}/object/o:${obj.digest}`;
    const status = (ref: string) =>
      store.refsReadBatch({ refs: [ref] }, ctx).then(
        () => 200,
        (e: { status: number }) => e.status,
      );
    expect(await status(`weave:///${p}/object/o:nope`)).toBe(404);
    expect(await status(`weave:///${p}/object/other:${obj.digest}`)).toBe(404);
    expect(await status(`${base}/key/missing`)).toBe(404);
    expect(await status(`${base}/index/0`)).toBe(404); // not a list
    expect(await status(`${base}/attr/list/index/1`)).toBe(404);
    expect(await status(`${base}/attr/rows/id/nope`)).toBe(404);
    expect(await status(`weave:///${p}/call/nope`)).toBe(404);
    expect(await status(`${base}/attr/n/id/x`)).toBe(400); // an id edge off a value that is no table ref
    expect(await status(`weave:///${p}/table/${table.digest}`)).toBe(400);
    expect(await status('not a ref')).toBe(400);
    await store.objDelete({ project_id: p, object_id: 'o' }, ctx);
    expect(await status(base)).toBe(404);
  });
});
