// table/update: Weave's edits (append, insert, pop, in order) on a stored table give a new table
// with Weave's digest; the base stays; indexes out of range refuse everything; number lexemes of
// the added rows count (1.0 is not 1), as in table/create. Both databases.
import type * as T from '@weft/types';
import { tableDigest } from '@weft/core';
import { expect, it } from 'vitest';
import { describeEachDialect } from '../dialects.ts';
import { ALICE, newProject, storeOn, viaHttp } from '../objects/helpers.ts';

describeEachDialect('tableUpdate', (getDb) => {
  const read = async (store: ReturnType<typeof storeOn>, project_id: string, digest: string) =>
    (await store.tableQuery({ project_id, digest }, ALICE)).rows.map((r) => r.val);

  it('appends, inserts and pops in order, with the digest table/create gives the same rows', async () => {
    const store = storeOn(getDb());
    const p = newProject('table-update');
    const base = await store.tableCreate({ table: { project_id: p, rows: [{ q: 'a' }, { q: 'b' }, { q: 'c' }] } }, ALICE);
    const res = await store.tableUpdate(
      {
        project_id: p,
        base_digest: base.digest,
        updates: [
          { append: { row: { q: 'd' } } },
          { pop: { index: 0 } },
          { insert: { index: 1, row: { q: 'x' } } },
          { insert: { index: 4, row: { q: 'end' } } },
        ],
      },
      ALICE,
    );
    expect(await read(store, p, res.digest)).toEqual([{ q: 'b' }, { q: 'x' }, { q: 'c' }, { q: 'd' }, { q: 'end' }]);
    const same = await store.tableCreate(
      { table: { project_id: p, rows: [{ q: 'b' }, { q: 'x' }, { q: 'c' }, { q: 'd' }, { q: 'end' }] } },
      ALICE,
    );
    expect(res.digest).toBe(same.digest);
    expect(res.digest).toBe(tableDigest(same.row_digests));
    expect(res.updated_row_digests).toEqual([same.row_digests[3], same.row_digests[1], same.row_digests[4]]);
    // The base is as it was.
    expect(await read(store, p, base.digest)).toEqual([{ q: 'a' }, { q: 'b' }, { q: 'c' }]);
    // Updating again the same way is the same table.
    expect((await store.tableUpdate({ project_id: p, base_digest: base.digest, updates: [{ pop: { index: 0 } }] }, ALICE)).digest).toBe(
      tableDigest(base.row_digests.slice(1)),
    );
  });

  it('keeps the number lexemes of added rows', async () => {
    const store = storeOn(getDb());
    const p = newProject('table-update-lexemes');
    const base = await store.tableCreate({ table: { project_id: p, rows: [] } }, ALICE);
    const body = (n: string) => `{"project_id":"${p}","base_digest":"${base.digest}","updates":[{"append":{"row":{"x":${n}}}}]}`;
    const float = await store.tableUpdate(...viaHttp<T.TableUpdateReq>(body('1.0')));
    const int = await store.tableUpdate(...viaHttp<T.TableUpdateReq>(body('1')));
    expect(float.digest).not.toBe(int.digest);
    const created = await store.tableCreate(...viaHttp<T.TableCreateReq>(`{"table":{"project_id":"${p}","rows":[{"x":1.0}]}}`));
    expect(float.digest).toBe(created.digest);
  });

  it('refuses an index out of range, or an unknown base, writing nothing', async () => {
    const db = getDb();
    const store = storeOn(db);
    const p = newProject('table-update-refused');
    const base = await store.tableCreate({ table: { project_id: p, rows: [{ q: 'a' }] } }, ALICE);
    const tables = async () => (await db.kysely.selectFrom('tables').select('digest').where('project_id', '=', p).execute()).length;
    for (const updates of [
      [{ pop: { index: 1 } }],
      [{ insert: { index: 2, row: { q: 'z' } } }],
      [{ pop: { index: 0 } }, { pop: { index: 0 } }],
    ] as T.TableUpdateReq['updates'][])
      await expect(store.tableUpdate({ project_id: p, base_digest: base.digest, updates }, ALICE)).rejects.toMatchObject({ status: 400 });
    await expect(
      store.tableUpdate({ project_id: p, base_digest: 'unknown', updates: [{ pop: { index: 0 } }] }, ALICE),
    ).rejects.toMatchObject({
      status: 404,
    });
    expect(await tables()).toBe(1);
  });
});
