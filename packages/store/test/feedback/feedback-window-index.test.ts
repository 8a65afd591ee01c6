// The feedback statistics routes share one window condition (feedbackWindowCondition); the
// database answers it from a range of feedback_created_idx, not from every feedback row of the
// project.
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { feedbackWindowCondition } from '../../src/feedback/feedback-stats.ts';
import { describeEachDialect } from '../dialects.ts';

describeEachDialect('feedback statistics window', (getDb) => {
  it('reads the window as a range of the index of feedback by project and creation time', async () => {
    const db = getDb();
    const window = { start: '2026-01-01T00:00:00.000Z', end: '2026-01-02T00:00:00.000Z', feedbackType: null, triggerRef: null };
    const query = sql`select count(*) as n from feedback as f where ${feedbackWindowCondition(db, 'acme/p', window)}`;
    const compiled = query.compile(db.kysely);
    const plan = await db.kysely.connection().execute(async (conn) => {
      // PostgreSQL would scan a table this small whole: the question is whether the index serves the window.
      if (db.dialect === 'postgres') await sql`set enable_seqscan = off`.execute(conn);
      try {
        const explain = db.dialect === 'sqlite' ? 'explain query plan ' : 'explain ';
        const { rows } = await conn.executeQuery<Record<string, string>>({ ...compiled, sql: explain + compiled.sql });
        return rows.map((r) => Object.values(r).join(' ')).join('\n');
      } finally {
        if (db.dialect === 'postgres') await sql`reset enable_seqscan`.execute(conn);
      }
    });
    expect(plan).toContain('feedback_created_idx');
  });
});
