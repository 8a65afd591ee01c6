import { describe, expect, it } from 'vitest';
import { refName } from './eval-compare.ts';
import { monitorRows, requestedRows } from './judges-summary.ts';

const group = (
  monitor: string | null,
  scorer: string,
  n: Partial<Record<'queued' | 'running' | 'done' | 'failed', number>>,
  cost: number,
  last: string | null,
) => ({
  monitor,
  scorer_ref: `weave:///acme/p/object/${scorer}:abc`,
  queued: n.queued ?? 0,
  running: n.running ?? 0,
  done: n.done ?? 0,
  failed: n.failed ?? 0,
  cost_usd: cost,
  last_done_at: last,
});

describe("the Judges page's rows", () => {
  it('sums a monitor over its scorers, keeps the latest done time, and keeps a deleted monitor that judged', () => {
    const rows = monitorRows(
      [
        {
          object_id: 'quality',
          val: { active: true, sampling_rate: 0.5, scorers: ['a', 'b'], call_filter: { op_names: ['answer'], query: null } },
        },
        { object_id: 'idle', val: { active: false, sampling_rate: 1, scorers: [] } },
      ],
      [
        group('quality', 'a', { done: 3, queued: 1 }, 0.25, '2026-01-01T00:00:02.000Z'),
        group('quality', 'b', { done: 2, running: 1, failed: 1 }, 0.5, '2026-01-01T00:00:05.000Z'),
        group('gone', 'a', { done: 1 }, 0.1, null),
        group(null, 'a', { done: 9 }, 9, null),
      ],
    );
    expect(rows.map((r) => r.name)).toEqual(['gone', 'idle', 'quality']);
    expect(rows[2]).toEqual({
      name: 'quality',
      active: true,
      sampling_rate: 0.5,
      op_names: ['answer'],
      scorers: 2,
      done: 5,
      pending: 2,
      failed: 1,
      cost_usd: 0.75,
      last_done_at: '2026-01-01T00:00:05.000Z',
    });
    expect(rows[1]).toMatchObject({ done: 0, cost_usd: 0, active: false });
    expect(rows[0]).toMatchObject({ done: 1, sampling_rate: undefined, active: false });
  });

  it("lists calls/score's judgements per scorer, by name", () => {
    expect(requestedRows([group(null, 'helpfulness', { done: 2, queued: 1 }, 0.2, null), group('m', 'x', {}, 0, null)])).toEqual([
      {
        scorer_ref: 'weave:///acme/p/object/helpfulness:abc',
        scorer: 'helpfulness',
        done: 2,
        pending: 1,
        failed: 0,
        cost_usd: 0.2,
        last_done_at: null,
      },
    ]);
    expect(refName('weave:///acme/p/object/helpfulness:latest')).toBe('helpfulness');
  });
});
