// Queries without a limit answer a whole table, project or queue list. They give the event loop
// turns while they run (on a SQLite file the read itself is on the reader thread; everywhere the
// rows are decoded a few milliseconds at a time), and answer exactly what a paged read does.
import { expect, it } from 'vitest';
import { all as collect, queuesOf } from './annotation-queues/queue-fixtures.ts';
import { describeEachDialect } from './dialects.ts';
import { turnsDuring } from './event-loop-turns.ts';
import { ALICE, createObj, newProject, storeOn } from './objects/helpers.ts';

const ROWS = Array.from({ length: 30_000 }, (_, i) => ({ i, text: `row ${i} `.repeat(4), nested: { a: [i, i + 1], b: 'x' } }));

describeEachDialect(
  'reads without a limit',
  (getDb, variant) => {
    it('table/query: the whole table in order, with turns for the event loop', async () => {
      const store = storeOn(getDb());
      const p = newProject('unlimited-table');
      const { digest, row_digests } = await store.tableCreate({ table: { project_id: p, rows: ROWS } }, ALICE);
      const { value, turns } = await turnsDuring(() => store.tableQuery({ project_id: p, digest }, ALICE));
      expect(value.rows).toHaveLength(ROWS.length);
      expect(value.rows.map((r) => r.val)).toEqual(ROWS);
      expect(value.rows.map((r) => r.digest)).toEqual(row_digests);
      expect(value.rows.every((r, i) => r.original_index === i)).toBe(true);
      // A read that held the loop from start to end gets no turn, or one before it starts; in memory
      // (the read itself on this thread, the rows decoded in turns) a fast machine sees two or three.
      expect(turns).toBeGreaterThan(1);
      // An offset alone still reads to the end.
      const tail = await store.tableQuery({ project_id: p, digest, offset: 29_990 }, ALICE);
      expect(tail.rows.map((r) => r.original_index)).toEqual(Array.from({ length: 10 }, (_, k) => 29_990 + k));
    });

    it('objs/query: the whole project, as the pages read it', async () => {
      const store = storeOn(getDb());
      const p = newProject('unlimited-objs');
      for (let i = 0; i < 1500; i++) await createObj(store, p, `o${i}`, { i, text: 'abc '.repeat(300) });
      const { value, turns } = await turnsDuring(() => store.objsQuery({ project_id: p }, ALICE));
      expect(value.objs).toHaveLength(1500);
      const paged = [];
      for (let offset = 0; offset < 1500; offset += 500)
        paged.push(...(await store.objsQuery({ project_id: p, offset, limit: 500 }, ALICE)).objs);
      expect(value.objs).toEqual(paged);
      expect(new Set(value.objs.map((o) => (o.val as { i: number }).i)).size).toBe(1500);
      // In memory the read runs in place (nothing else can open that database); 1,500 rows decode in
      // one turn. Elsewhere the loop turns while the read runs (a fast reader thread answers within
      // one turn; a read that held the loop would get none).
      if (variant !== 'sqlite') expect(turns).toBeGreaterThan(0);
    });

    it('annotation_queues/query: every queue, as the pages read them', async () => {
      const queues = queuesOf(getDb());
      const p = newProject('unlimited-queues');
      for (let i = 0; i < 300; i++)
        await queues.annotationQueueCreate({ project_id: p, name: `q${i}`, scorer_refs: [] }, { user: 'alice' });
      const all = await collect(
        queues.annotationQueuesQuery({ project_id: p, sort_by: [{ field: 'name', direction: 'asc' }] }, { user: 'alice' }),
      );
      const paged = [];
      for (let offset = 0; offset < 300; offset += 100)
        paged.push(
          ...(await collect(
            queues.annotationQueuesQuery(
              { project_id: p, sort_by: [{ field: 'name', direction: 'asc' }], offset, limit: 100 },
              { user: 'alice' },
            ),
          )),
        );
      expect(all).toHaveLength(300);
      expect(all).toEqual(paged);
    });

    it('reports a bad long read as an error, and the next one works', async () => {
      const db = getDb();
      await expect(db.readLong({ sql: 'select * from no_such_table', parameters: [] })).rejects.toThrow(/no_such_table/);
      // 2,500 rows: more than one batch of the PostgreSQL cursor.
      const rows = await db.readLong<{ n: number }>({
        sql: 'with recursive s(n) as (select 1 union all select n + 1 from s where n < 2500) select n from s',
        parameters: [],
      });
      expect(rows.map((r) => Number(r.n))).toEqual(Array.from({ length: 2500 }, (_, i) => i + 1));
    });
  },
  { sqliteFile: true },
);
