// How a log's trajectories are stored: both databases keep each row as JSON.stringify's text of
// the trajectory with its defaults (keys in the order sent; PostgreSQL as json), and a sort by an
// object-valued field compares that text, as written, in both.
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { tableMethods } from '../../src/tables/index.ts';
import { describeEachDialect } from '../dialects.ts';
import { createReq, ctx, logReq, modelsOf } from './model-fixtures.ts';

const TRAJECTORY = {
  reward: 0.5,
  messages_and_choices: [{ role: 'user', content: 'hi' }],
  metrics: { zz: 1, a: 2 },
  metadata: { long_key: { b: 1, a: 2 } },
};

describeEachDialect('a log’s trajectory rows as stored', (getDb) => {
  it('keeps the text as written in both databases, and sorts objects by it', async () => {
    const db = getDb();
    const models = modelsOf(db);
    const model = await models.modelCreate(createReq({ name: 'stored-rows' }), ctx);
    const res = await models.modelLog(
      logReq(model.id, 'train', [{ trajectories: [TRAJECTORY, { ...TRAJECTORY, reward: 0.25, metadata: { long_key: { a: 9 } } }] }]),
      ctx,
    );
    const { rows } = await sql<{ text: string }>`select cast(r.val as text) as text from trajectories t
      join rows r on r.project_id = t.project_id and r.digest = t.row_digest
      where t.log_id = ${res.log_id} order by t.trajectory_index`.execute(db.kysely);
    const first = JSON.parse(rows[0]!.text) as Record<string, unknown>;
    expect(first).toMatchObject({ ...TRAJECTORY, group_index: 0, trajectory_index: 0 });
    const keys = Object.keys(first);
    // As sent, then the defaults the trajectory lacked, then Weft's position.
    expect(keys.slice(0, 4)).toEqual(['reward', 'messages_and_choices', 'metrics', 'metadata']);
    expect(keys.slice(-2)).toEqual(['group_index', 'trajectory_index']);
    expect(rows[0]!.text).toContain('"metrics":{"zz":1,"a":2}');

    // A sort by an object-valued field compares the text as written in both databases (in jsonb's
    // key order, {"a":2,"b":1} would come first).
    const tables = tableMethods({ db });
    const sorted = await tables.tableQuery(
      { project_id: 'acme/agents', digest: res.table_digest, sort_by: [{ field: 'metadata.long_key', direction: 'asc' }] },
      ctx,
    );
    expect(sorted.rows.map((r) => (r.val as { reward: number }).reward)).toEqual([0.25, 0.5]); // {"a":9} < {"b":1,"a":2}
  });
});
