// feedback/aggregate on both databases (and a SQLite file, where the query runs on the reader
// thread): sparse time buckets, groups by scorer id, the prefix and object-id filters, the typed
// columns read at their defaults (no tags, no ratings), tenancy and the bounds.
import type * as T from '@weft/types';
import { expect, it } from 'vitest';
import type { Db } from '../../src/db/index.ts';
import { feedbackMethods } from '../../src/feedback/index.ts';
import { feedbackRow } from '../../src/feedback/feedback-row.ts';
import { describeEachDialect } from '../dialects.ts';

const ctx = { user: 'alice' };
const T0 = Date.parse('2025-06-03T09:00:00.000Z');
const MIN = 60_000;

let next = 0;
async function seed(
  db: Db,
  project: string,
  rows: { min: number; type?: string; runnable?: string | null; trigger?: string | null; call?: string }[],
): Promise<void> {
  for (const r of rows) {
    const req: T.FeedbackCreateReq = {
      project_id: project,
      weave_ref: `weave:///${project}/${r.call ?? 'call'}/x1`,
      feedback_type: r.type ?? 'wandb.runnable.judge',
      payload: {},
      runnable_ref: r.runnable ?? null,
      trigger_ref: r.trigger ?? null,
    };
    const at = new Date(T0 + r.min * MIN).toISOString();
    await db.kysely
      .insertInto('feedback')
      .values(feedbackRow(db, req, `fa-${next++}`, 'alice', at))
      .execute();
  }
}

const empty = { scored_count: 0, tag_counts: {}, rating_counts: {}, rating_sums: {} };

describeEachDialect(
  'feedback aggregate',
  (getDb) => {
    const fb = () => feedbackMethods({ db: getDb() });
    const P = 'acme/fa';
    const scorer = (name: string) => `weave:///${P}/op/${name}:abc123`;
    const monitor = (name: string) => `weave:///${P}/object/${name}:v1`;
    const hour = (extra: Partial<T.FeedbackAggregateReq> = {}): T.FeedbackAggregateReq => ({
      project_id: P,
      after_ms: T0,
      before_ms: T0 + 60 * MIN,
      ...extra,
    });

    it('counts per time bucket (sparse) and per scorer id, ordered', async () => {
      await seed(getDb(), P, [
        { min: 1, runnable: scorer('tone'), trigger: monitor('mon') },
        { min: 2, runnable: scorer('accuracy'), trigger: monitor('monday') },
        { min: 25, runnable: scorer('tone'), type: 'wandb.annotation.note' },
        { min: 25, runnable: null, call: 'agent_turn' },
        { min: 61, runnable: scorer('tone') }, // after the window
      ]);
      await seed(getDb(), 'acme/fa-other', [{ min: 1, runnable: scorer('tone') }]);
      expect(await fb().feedbackAggregate(hour(), ctx)).toEqual({
        time_bucket_seconds: null,
        after_ms: T0,
        before_ms: T0 + 60 * MIN,
        buckets: [{ time_bucket_start_ms: null, group: {}, total_count: 4, ...empty }],
      });
      const res = await fb().feedbackAggregate(hour({ time_bucket_seconds: 600, group_by: ['scorer_id', 'span_status_code'] }), ctx);
      expect(res.buckets).toEqual([
        { time_bucket_start_ms: T0, group: { scorer_id: 'accuracy', span_status_code: 'UNSET' }, total_count: 1, ...empty },
        { time_bucket_start_ms: T0, group: { scorer_id: 'tone', span_status_code: 'UNSET' }, total_count: 1, ...empty },
        { time_bucket_start_ms: T0 + 20 * MIN, group: { scorer_id: '', span_status_code: 'UNSET' }, total_count: 1, ...empty },
        { time_bucket_start_ms: T0 + 20 * MIN, group: { scorer_id: 'tone', span_status_code: 'UNSET' }, total_count: 1, ...empty },
      ]);
    });

    it('filters by feedback type prefix, monitor and scorer ids, span type; tag and rating filters match nothing', async () => {
      const total = async (extra: Partial<T.FeedbackAggregateReq>) =>
        (await fb().feedbackAggregate(hour(extra), ctx)).buckets[0]!.total_count;
      expect(await total({ feedback_types: ['wandb.runnable.'] })).toBe(3);
      expect(await total({ feedback_types: ['wandb.annotation*', 'nothing'] })).toBe(1);
      expect(await total({ monitor_ids: ['mon'] })).toBe(1);
      expect(await total({ monitor_ids: ['mon*'] })).toBe(2);
      expect(await total({ scorer_ids: ['tone', 'accuracy'] })).toBe(3);
      expect(await total({ span_types: ['agent_turn'] })).toBe(1);
      expect(await total({ span_agent_names: [''] })).toBe(4);
      expect(await total({ span_agent_names: ['planner'] })).toBe(0);
      expect(await total({ tags: ['toxic'] })).toBe(0);
      expect(await total({ rating_min: 0 })).toBe(0);
      // Nulls as absent, as Weave's SDK sends them.
      expect(
        await total({
          time_bucket_seconds: null,
          feedback_types: null,
          tags: null,
          rating_min: null,
          rating_max: null,
          monitor_ids: null,
          group_by: null,
        }),
      ).toBe(4);
      expect(await total({ project_id: 'acme/fa-nobody' })).toBe(0);
    });

    it('refuses a window of more than 10,000 buckets with 422', async () => {
      await expect(fb().feedbackAggregate(hour({ time_bucket_seconds: 1, before_ms: T0 + 3 * 3_600_000 }), ctx)).rejects.toMatchObject({
        status: 422,
        detail: [expect.objectContaining({ loc: ['body', 'time_bucket_seconds'] })],
      });
    });
  },
  { sqliteFile: true },
);
