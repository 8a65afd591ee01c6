// The feedback statistics routes share one window condition (feedbackWindowCondition); the
// database answers it from a range of feedback_created_idx, not from every feedback row of the
// project.
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { jsonParam } from '../../src/db/index.ts';
import { feedbackWindowCondition } from '../../src/feedback/feedback-stats.ts';
import { describeEachDialect } from '../dialects.ts';
import { queryPlan } from '../query-plan.ts';

describeEachDialect('feedback statistics window', (getDb) => {
  it('reads the window as a range of the index of feedback by project and creation time', async () => {
    const db = getDb();
    // Rows over ten days, on many calls: on an empty table PostgreSQL's costs tie between this
    // index and feedback_call_type_idx (also led by project_id), and either plan may come out.
    const rows = Array.from({ length: 400 }, (_, i) => ({
      project_id: 'acme/p',
      id: `fb-${String(i).padStart(4, '0')}`,
      weave_ref: `weave:///acme/p/call/c${i}`,
      feedback_type: 'wandb.reaction.1',
      payload: jsonParam(db, { emoji: '👍' }),
      created_at: new Date(Date.UTC(2025, 11, 24) + i * 36 * 60_000).toISOString(),
    }));
    await db.kysely.insertInto('feedback').values(rows).execute();
    const window = { start: '2026-01-01T00:00:00.000Z', end: '2026-01-02T00:00:00.000Z', feedbackType: null, triggerRef: null };
    const query = sql`select count(*) as n from feedback as f where ${feedbackWindowCondition(db, 'acme/p', window)}`;
    const plan = await queryPlan(db, query.compile(db.kysely), { seqscanOff: 'feedback' });
    expect(plan).toContain('feedback_created_idx');
  });
});
