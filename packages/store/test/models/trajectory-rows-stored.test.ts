// How a log's trajectories are stored: PostgreSQL keeps each row as json, JSON.stringify's text of
// the trajectory with its defaults (keys in the order sent), SQLite as text with keys in jsonb
// order; both read back to the same value, and a sort by an object-valued field compares the same
// text in both (PostgreSQL reads it as jsonb).
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
  it('keeps PostgreSQL’s text as written and SQLite’s in jsonb order, the same value in both', async () => {
    const db = getDb();
    const models = modelsOf(db);
    const model = await models.modelCreate(createReq({ name: 'stored-rows' }), ctx);
    const res = await models.modelLog(
      logReq(model.id, 'train', [{ trajectories: [TRAJECTORY, { ...TRAJECTORY, reward: 0.25, metadata: { long_key: { a: 0 } } }] }]),
      ctx,
    );
    const { rows } = await sql<{ text: string }>`select cast(r.val as text) as text from trajectories t
      join rows r on r.project_id = t.project_id and r.digest = t.row_digest
      where t.log_id = ${res.log_id} order by t.trajectory_index`.execute(db.kysely);
    const first = JSON.parse(rows[0]!.text) as Record<string, unknown>;
    expect(first).toMatchObject({ ...TRAJECTORY, group_index: 0, trajectory_index: 0 });
    const keys = Object.keys(first);
    if (db.dialect === 'postgres') {
      // As sent, then the defaults the trajectory lacked, then Weft's position.
      expect(keys.slice(0, 4)).toEqual(['reward', 'messages_and_choices', 'metrics', 'metadata']);
      expect(keys.slice(-2)).toEqual(['group_index', 'trajectory_index']);
      expect(rows[0]!.text).toContain('"metrics":{"zz":1,"a":2}');
    } else {
      expect(keys).toEqual([...keys].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0)));
      expect(rows[0]!.text).toContain('"metrics":{"a":2,"zz":1}');
    }

    // A sort by an object-valued field compares its jsonb-ordered text in both databases.
    const tables = tableMethods({ db });
    const sorted = await tables.tableQuery(
      { project_id: 'acme/agents', digest: res.table_digest, sort_by: [{ field: 'metadata.long_key', direction: 'asc' }] },
      ctx,
    );
    expect(sorted.rows.map((r) => (r.val as { reward: number }).reward)).toEqual([0.25, 0.5]); // {"a":0} < {"a":2,"b":1}
  });
});
