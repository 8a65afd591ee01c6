// feedback/stats and feedback/payload_schema on both databases (and a SQLite file, where the
// aggregates run on the reader thread): buckets (empty ones included), each aggregation, boolean
// and categorical values, nested paths, the feedback_type and trigger_ref filters, tenancy, and
// the refusals of what Weft does not honour.
import type * as T from '@weft/types';
import { expect, it } from 'vitest';
import type { Db } from '../../src/db/index.ts';
import { feedbackMethods } from '../../src/feedback/index.ts';
import { feedbackRow } from '../../src/feedback/feedback-row.ts';
import { describeEachDialect } from '../dialects.ts';

const ctx = { user: 'alice' };
const DAY = '2025-06-03T';

interface Seed {
  at: string;
  payload: Record<string, unknown>;
  type?: string;
  trigger?: string | null;
  project?: string;
  deleted?: boolean;
}

let next = 0;
async function seed(db: Db, project: string, rows: Seed[]): Promise<void> {
  for (const r of rows) {
    const p = r.project ?? project;
    const req: T.FeedbackCreateReq = {
      project_id: p,
      weave_ref: `weave:///${p}/call/c1`,
      feedback_type: r.type ?? 'wandb.runnable.judge',
      payload: r.payload,
      trigger_ref: r.trigger ?? null,
    };
    const row = feedbackRow(db, req, `fb-${String(next++).padStart(6, '0')}`, 'alice', `${DAY}${r.at}Z`);
    await db.kysely
      .insertInto('feedback')
      .values({ ...row, deleted_at: r.deleted ? `${DAY}12:00:00.000Z` : null })
      .execute();
  }
}

const window = (project: string, extra: Partial<T.FeedbackStatsReq> = {}): T.FeedbackStatsReq => ({
  project_id: project,
  start: `${DAY}09:00:00.000Z`,
  end: `${DAY}10:00:00.000Z`,
  granularity: 900,
  ...extra,
});

describeEachDialect(
  'feedback stats',
  (getDb) => {
    const fb = () => feedbackMethods({ db: getDb() });

    it('answers every bucket, empty ones too, with each aggregation of a nested numeric path', async () => {
      const p = 'acme/fs-num';
      await seed(getDb(), p, [
        { at: '09:01:00.000', payload: { output: { score: 1 } } },
        { at: '09:14:59.999', payload: { output: { score: 4 } } },
        { at: '09:20:00.000', payload: { output: { score: 'high' } } }, // not a number: counted, no value
        { at: '09:50:00.000', payload: { output: { score: 2.5 } } },
        { at: '08:59:59.999', payload: { output: { score: 100 } } }, // before start
        { at: '10:00:00.000', payload: { output: { score: 100 } } }, // end is exclusive
        { at: '09:05:00.000', payload: { output: { score: 100 } }, deleted: true },
        { at: '09:05:00.000', payload: { output: { score: 100 } }, project: 'acme/fs-other' },
      ]);
      const all: NonNullable<T.FeedbackMetricSpec['aggregations']> = ['sum', 'avg', 'min', 'max', 'count', 'count_true', 'count_false'];
      const res = await fb().feedbackStats(window(p, { metrics: [{ json_path: 'output.score', aggregations: all }] }), ctx);
      const keys = (values: (number | null)[]) => Object.fromEntries(all.map((a, i) => [`${a}_output_score`, values[i]]));
      expect(res).toEqual({
        start: `${DAY}09:00:00.000Z`,
        end: `${DAY}10:00:00.000Z`,
        granularity: 900,
        timezone: 'UTC',
        buckets: [
          { timestamp: `${DAY}09:00:00.000Z`, ...keys([5, 2.5, 1, 4, 2, 1, 0]), count: 2 },
          { timestamp: `${DAY}09:15:00.000Z`, ...keys([0, 0, null, null, 0, 0, 0]), count: 1 },
          { timestamp: `${DAY}09:30:00.000Z`, ...keys([0, 0, null, null, 0, 0, 0]), count: 0 },
          { timestamp: `${DAY}09:45:00.000Z`, ...keys([2.5, 2.5, 2.5, 2.5, 1, 0, 0]), count: 1 },
        ],
        window_stats: { output_score: { sum: 7.5, avg: 2.5, min: 1, max: 4, count: 3, count_true: 1, count_false: 0 } },
      });
      // Defaults: avg, min, max for numeric.
      const defaults = await fb().feedbackStats(window(p, { metrics: [{ json_path: 'output.score' }] }), ctx);
      expect(defaults.window_stats).toEqual({ output_score: { avg: 2.5, min: 1, max: 4 } });
      expect(Object.keys(defaults.buckets[0]!)).toEqual(['timestamp', 'avg_output_score', 'min_output_score', 'max_output_score', 'count']);
      // Another project's feedback is never counted.
      const other = await fb().feedbackStats(window('acme/fs-nobody', { metrics: [{ json_path: 'output.score' }] }), ctx);
      expect(other.buckets.map((b) => b.count)).toEqual([0, 0, 0, 0]);
      expect(other.window_stats).toEqual({ output_score: { avg: null, min: null, max: null } });
    });

    it('counts booleans as 1 and 0, and strings of a categorical path', async () => {
      const p = 'acme/fs-bool';
      await seed(getDb(), p, [
        { at: '09:00:00.000', payload: { passed: true, label: 'good' } },
        { at: '09:01:00.000', payload: { passed: true, label: 'bad' } },
        { at: '09:02:00.000', payload: { passed: false, label: 3 } },
        { at: '09:03:00.000', payload: { passed: 1, 'a b': { c: 'x' } } },
      ]);
      // Defaults for boolean: count_true and count_false; 1 is a number, not true.
      const res = await fb().feedbackStats(
        window(p, { granularity: 3600, metrics: [{ json_path: 'passed', value_type: 'boolean' }] }),
        ctx,
      );
      expect(res.buckets).toEqual([{ timestamp: `${DAY}09:00:00.000Z`, count_true_passed: 2, count_false_passed: 1, count: 4 }]);
      const more = await fb().feedbackStats(
        window(p, {
          granularity: 3600,
          metrics: [
            { json_path: 'passed', value_type: 'boolean', aggregations: ['avg', 'count'] },
            { json_path: 'label', value_type: 'categorical' },
            { json_path: 'a b.c', value_type: 'categorical', aggregations: ['count'] },
          ],
        }),
        ctx,
      );
      expect(more.window_stats).toEqual({ passed: { avg: 2 / 3, count: 3 }, label: { count: 2 }, a_b_c: { count: 1 } });
    });

    it('filters by feedback_type and by trigger_ref, exact or by prefix with :*', async () => {
      const p = 'acme/fs-filter';
      const ref = (v: string) => `weave:///${p}/object/monitor:${v}`;
      await seed(getDb(), p, [
        { at: '09:00:00.000', payload: { s: 1 }, type: 'wandb.runnable.a', trigger: ref('v1') },
        { at: '09:00:00.000', payload: { s: 10 }, type: 'wandb.runnable.a', trigger: ref('v2') },
        { at: '09:00:00.000', payload: { s: 100 }, type: 'wandb.runnable.b', trigger: ref('v2') },
        { at: '09:00:00.000', payload: { s: 1000 }, type: 'wandb.runnable.a', trigger: null },
      ]);
      const sum = async (extra: Partial<T.FeedbackStatsReq>) =>
        (await fb().feedbackStats(window(p, { ...extra, metrics: [{ json_path: 's', aggregations: ['sum'] }] }), ctx)).window_stats;
      expect(await sum({})).toEqual({ s: { sum: 1111 } });
      expect(await sum({ feedback_type: 'wandb.runnable.a' })).toEqual({ s: { sum: 1011 } });
      expect(await sum({ trigger_ref: ref('v2') })).toEqual({ s: { sum: 110 } });
      expect(await sum({ trigger_ref: `weave:///${p}/object/monitor:*` })).toEqual({ s: { sum: 111 } });
      expect(await sum({ trigger_ref: `weave:///${p}/object/monitor:*`, feedback_type: 'wandb.runnable.b' })).toEqual({ s: { sum: 100 } });
      expect(await sum({ trigger_ref: 'weave:///acme/elsewhere:*' })).toEqual({ s: { sum: null } });
    });

    it('chooses the granularity as Weave does, and answers no metrics with no buckets', async () => {
      const p = 'acme/fs-granularity';
      const day = await fb().feedbackStats(
        { project_id: p, start: '2024-01-01T00:00:00Z', end: '2024-01-02T00:00:00Z', metrics: [{ json_path: 'x' }] },
        ctx,
      );
      expect([day.granularity, day.buckets.map((b) => b.timestamp)]).toEqual([
        21_600,
        ['2024-01-01T00:00:00.000Z', '2024-01-01T06:00:00.000Z', '2024-01-01T12:00:00.000Z', '2024-01-01T18:00:00.000Z'],
      ]);
      // Buckets start at multiples of the granularity, before `start` when it falls inside one.
      const shifted = await fb().feedbackStats(window(p, { start: `${DAY}09:10:00Z`, metrics: [{ json_path: 'x' }] }), ctx);
      expect(shifted.buckets.map((b) => b.timestamp)).toEqual([
        `${DAY}09:00:00.000Z`,
        `${DAY}09:15:00.000Z`,
        `${DAY}09:30:00.000Z`,
        `${DAY}09:45:00.000Z`,
      ]);
      // Forty years in auto granularity: coarser than a day, under 10,000 buckets.
      const long = await fb().feedbackStats(
        { project_id: p, start: '1990-01-01T00:00:00Z', end: '2030-01-01T00:00:00Z', metrics: [{ json_path: 'x' }] },
        ctx,
      );
      expect(long.granularity).toBeGreaterThan(86_400);
      expect(long.buckets.length).toBeLessThanOrEqual(10_001);
      expect(await fb().feedbackStats(window(p, { metrics: null }), ctx)).toEqual({
        start: `${DAY}09:00:00.000Z`,
        end: `${DAY}10:00:00.000Z`,
        granularity: 3600,
        timezone: 'UTC',
        buckets: [],
        window_stats: null,
      });
    });

    it('takes any IANA time zone and echoes it: second buckets fall on the same instants in every zone', async () => {
      const p = 'acme/fs-zones';
      const m = [{ json_path: 'score' }];
      const utc = await fb().feedbackStats(window(p, { metrics: m }), ctx);
      const berlin = await fb().feedbackStats(window(p, { metrics: m, timezone: 'Europe/Berlin' }), ctx);
      expect(berlin.timezone).toBe('Europe/Berlin');
      expect({ ...berlin, timezone: 'UTC' }).toEqual(utc);
    });

    it('refuses with 422 naming the field what it cannot honour', async () => {
      const p = 'acme/fs-refusals';
      const refused = async (req: T.FeedbackStatsReq, loc: string[]) =>
        expect(fb().feedbackStats(req, ctx)).rejects.toMatchObject({ status: 422, detail: [expect.objectContaining({ loc })] });
      const m = [{ json_path: 'score' }];
      await refused(window(p, { timezone: 'Mars/Olympus_Mons', metrics: m }), ['body', 'timezone']);
      await refused(window(p, { metrics: [{ json_path: 'score', percentiles: [50] }] }), ['body', 'metrics', '0', 'percentiles']);
      await refused(window(p, { metrics: [{ json_path: 'label', value_type: 'categorical', aggregations: ['avg'] }] }), [
        'body',
        'metrics',
        '0',
        'aggregations',
      ]);
      await refused(window(p, { metrics: [{ json_path: 'a.b' }, { json_path: 'a_b' }] }), ['body', 'metrics', '1', 'json_path']);
      await refused(window(p, { granularity: 1, start: '2025-01-01T00:00:00Z', metrics: m }), ['body', 'granularity']);
      await refused(window(p, { start: 'yesterday', metrics: m }), ['body', 'start']);
      await refused(window(p, { end: `${DAY}08:00:00Z`, metrics: m }), ['body', 'end']);
      await refused({ project_id: p, start: '0000-01-02T00:00:00Z', end: '0001-01-01T00:00:00Z', granularity: 604_800, metrics: m }, [
        'body',
        'start',
      ]);
      // Within 10,000 buckets but too many values for one answer.
      const many = Array.from({ length: 20 }, (_, i) => ({ json_path: `s${i}` }));
      await refused(window(p, { granularity: 60, start: '2025-05-30T00:00:00Z', metrics: many }), ['body', 'granularity']);
      // Null as absent, as Weave's SDK sends it.
      const nulls = await fb().feedbackStats(
        {
          ...window(p),
          timezone: null,
          granularity: null,
          end: null,
          feedback_type: null,
          trigger_ref: null,
          metrics: [{ json_path: 'score', value_type: null, aggregations: null, percentiles: null }],
        },
        ctx,
      );
      expect(nulls.timezone).toBe('UTC');
    });

    it('finds the leaf paths of the newest payload per trigger_ref, with their types', async () => {
      const p = 'acme/fs-schema';
      const ref = (v: string) => `weave:///${p}/object/monitor:${v}`;
      await seed(getDb(), p, [
        { at: '09:00:00.000', payload: { old: 1 }, trigger: null },
        {
          at: '09:05:00.000',
          payload: { output: { score: 0.9, passed: true, label: 'ok', tags: ['a'] }, 'x.y': 1, n: null },
          trigger: null,
        },
        { at: '09:06:00.000', payload: { output: { score: 'high' }, items: [{ a: 1 }], "q'uote": 1 }, trigger: ref('v1') },
        { at: '09:07:00.000', payload: { other: 1 }, trigger: ref('v2'), type: 'wandb.runnable.b' },
        { at: '09:07:00.000', payload: { elsewhere: 1 }, project: 'acme/fs-schema-other' },
      ]);
      const schema = async (extra: Partial<T.FeedbackPayloadSchemaReq> = {}) =>
        (await fb().feedbackPayloadSchema({ project_id: p, start: `${DAY}09:00:00Z`, end: `${DAY}10:00:00Z`, ...extra }, ctx)).paths;
      expect(await schema()).toEqual([
        { json_path: 'n', value_type: 'boolean' },
        { json_path: 'other', value_type: 'numeric' },
        { json_path: 'output.label', value_type: 'categorical' },
        { json_path: 'output.passed', value_type: 'boolean' },
        { json_path: 'output.score', value_type: 'categorical' },
        { json_path: 'output.tags', value_type: 'categorical' },
      ]);
      expect(await schema({ feedback_type: 'wandb.runnable.b' })).toEqual([{ json_path: 'other', value_type: 'numeric' }]);
      expect(await schema({ trigger_ref: `weave:///${p}/object/monitor:*` })).toEqual([
        { json_path: 'other', value_type: 'numeric' },
        { json_path: 'output.score', value_type: 'categorical' },
      ]);
      // The most recent trigger_refs first, at most sample_limit of them.
      expect(await schema({ sample_limit: 1 })).toEqual([{ json_path: 'other', value_type: 'numeric' }]);
      expect(await schema({ start: `${DAY}09:00:00Z`, end: `${DAY}09:01:00Z` })).toEqual([{ json_path: 'old', value_type: 'numeric' }]);
      expect(await schema({ project_id: 'acme/fs-nobody' })).toEqual([]);
    });
  },
  { sqliteFile: true },
);
