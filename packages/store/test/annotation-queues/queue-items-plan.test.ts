// A queue's page of items in the default order (created_at, id) is a range of the partial index of
// live items, read in its order: no sort of the whole queue. On PostgreSQL the table has no
// statistics here, as a queue just filled has none: the case where the planner once preferred
// the partial unique index of (queue, call), whose predicate matched, and sorted every item.
import type { CompiledQuery, KyselyPlugin } from 'kysely';
import { expect, it } from 'vitest';
import { createStore } from '../../src/create-store.ts';
import type { Db } from '../../src/db/index.ts';
import { catalogue, ctx } from '../calls/call-fixtures.ts';
import { describeEachDialect } from '../dialects.ts';
import { queryPlan } from '../query-plan.ts';

/** The same database, recording every statement the store compiles. */
function recording(db: Db, statements: CompiledQuery[]): Db {
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      statements.push(db.kysely.getExecutor().compileQuery(args.node, args.queryId));
      return args.node;
    },
    transformResult: (args) => Promise.resolve(args.result),
  };
  return Object.create(db, { kysely: { value: db.kysely.withPlugin(plugin) } }) as Db;
}

describeEachDialect('annotation queue items: the page plan', (getDb) => {
  for (const include_position of [false, true]) {
    it(`reads a page of the default order from the live items' index${include_position ? ', with positions' : ''}`, async () => {
      const db = getDb();
      const p = `qplan/p${String(include_position)}`;
      const { id: queue_id } = await createStore({ db, catalogue }).annotationQueueCreate(
        { project_id: p, name: 'q', scorer_refs: [] },
        ctx,
      );
      const statements: CompiledQuery[] = [];
      await createStore({ db: recording(db, statements), catalogue }).annotationQueueItemsQuery(
        { project_id: p, queue_id, limit: 50, offset: 950, include_position },
        ctx,
      );
      const page = statements.find((s) => s.sql.includes('"annotation_queue_items".*'));
      expect(page).toBeDefined();
      const plan = await queryPlan(db, page!);
      if (db.dialect === 'sqlite') {
        expect(plan).toContain('annotation_queue_items_live_idx (project_id=? AND queue_id=?)');
        // The page itself is not sorted (a temporary B-tree of the outer query, parent 0); each
        // item's few progress records are, in its state subquery.
        expect(plan).not.toMatch(/^\d+ 0 \d+ USE TEMP B-TREE/m);
      } else {
        expect(plan).toContain('Index Scan using annotation_queue_items_live_idx');
        expect(plan).not.toMatch(/Sort Key: .*created_at/);
      }
    });
  }
});
