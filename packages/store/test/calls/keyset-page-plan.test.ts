// calls/stream_query reads past its first internal page by keyset (`after the last row`, with the
// id tie-break). That condition must give the index a range to start at, or each page costs every
// call before it: an OR of `started_at > x` and `started_at = x and id > y` alone was walked from
// the project's first call on PostgreSQL and read through a MULTI-INDEX OR and a full sort on SQLite.
import type * as T from '@weft/types';
import type { CompiledQuery, KyselyPlugin } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { callsStreamQuery } from '../../src/calls/calls-stream-query.ts';
import type { Db } from '../../src/db/index.ts';
import { describeEachDialect } from '../dialects.ts';
import { explain } from '../objects/helpers.ts';
import { callsOf, catalogue, ctx, startReq } from './call-fixtures.ts';

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

/** The statement of the second internal page of a stream read. */
async function secondPage(db: Db, req: T.CallsStreamQueryReq): Promise<CompiledQuery> {
  const statements: CompiledQuery[] = [];
  for await (const _ of callsStreamQuery(recording(db, statements), catalogue, { ...req, limit: 8 }, ctx, 4));
  const pages = statements.filter((s) => /^select "calls"\.\*/.test(s.sql));
  expect(pages).toHaveLength(2);
  return pages[1]!;
}

describeEachDialect('calls/stream_query keyset pages', (getDb) => {
  const p = 'keyset/plan';
  beforeAll(async () => {
    const calls = callsOf(getDb());
    for (let i = 0; i < 40; i++) {
      const started_at = `2025-06-03T09:00:${String(Math.floor(i / 3)).padStart(2, '0')}.000Z`;
      await calls.callStart(startReq(p, { id: `c${String(39 - i).padStart(2, '0')}`, started_at, op_name: `op${i % 2}` }), ctx);
    }
  });

  const cases: [string, Omit<T.CallsStreamQueryReq, 'project_id'>, string, RegExp][] = [
    ['default order', {}, 'calls_started_idx', /started_at >= /],
    ['started_at desc', { sort_by: [{ field: 'started_at', direction: 'desc' }] }, 'calls_started_idx', /started_at <= /],
    ['one op', { filter: { op_names: ['op1'] } }, 'calls_op_started_idx', /started_at >= /],
  ];
  for (const [label, req, index, bound] of cases) {
    it(`${label}: a page past the first starts its index range at the last row`, async () => {
      const db = getDb();
      const page = await secondPage(db, { project_id: p, ...req });
      const plan = await explain(db, page);
      if (db.dialect === 'postgres') {
        // The bound is an index condition (of whichever index a table this small gets), not a
        // filter over the rows read from the project's first call.
        expect(plan.split('\n').find((line) => line.includes('Index Cond'))).toMatch(bound);
      } else {
        expect(plan).toMatch(new RegExp(`${index} \\(project_id=\\? AND (op_name=\\? AND )?started_at[<>]\\?\\)`));
        expect(plan).not.toMatch(/MULTI-INDEX OR/);
        // Only the id tie-break is sorted, group by group of equal started_at.
        expect(plan).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/);
      }
    });
  }
});
