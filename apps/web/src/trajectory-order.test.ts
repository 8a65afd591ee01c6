import type { TrajectoryRecord } from '@weft/types';
import { describe, expect, it } from 'vitest';
import { pageOf, sortTrajectories, summaryOf } from './trajectory-order.ts';

const record = (id: string, reward: number | undefined, messages: unknown[] = []): TrajectoryRecord =>
  ({
    id,
    log_id: 'log',
    split: 'train',
    step: 1,
    table_digest: null,
    row_digest: null,
    trajectory: { group_index: 0, trajectory_index: 0, reward, metrics: {}, metadata: {}, messages_and_choices: messages },
  }) as TrajectoryRecord;

describe('a step’s trajectories', () => {
  const list = [record('a', 0.5), record('b', 0.9), record('c', undefined), record('d', 0.1), record('e', 0.9)];
  const ids = (l: TrajectoryRecord[]) => l.map((t) => t.id).join('');

  it('sorts by reward either way, ties in logged order and no reward last', () => {
    expect(ids(sortTrajectories(list, 'reward-desc'))).toBe('beadc');
    expect(ids(sortTrajectories(list, 'reward-asc'))).toBe('dabec');
    expect(ids(sortTrajectories(list, 'logged'))).toBe('abcde');
    expect(ids(list)).toBe('abcde'); // the input is left alone
  });

  it('pages, holding the page within the pages there are', () => {
    const n = Array.from({ length: 45 }, (_, i) => i);
    expect(pageOf(n, 0, 20)).toMatchObject({ page: 0, pages: 3, items: n.slice(0, 20) });
    expect(pageOf(n, 2, 20).items).toEqual([40, 41, 42, 43, 44]);
    expect(pageOf(n, 7, 20).page).toBe(2);
    expect(pageOf(n, -1, 20).page).toBe(0);
    expect(pageOf([], 0, 20)).toEqual({ items: [], page: 0, pages: 1 });
  });

  it('sums a trajectory up by the model’s last words, on one line', () => {
    const t = record('x', 1, [
      { role: 'user', content: 'Change my flight.' },
      { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Done:\n  moved to   Friday.' } },
      { role: 'tool', content: 'ok' },
    ]);
    expect(summaryOf(t)).toBe('3 messages · assistant: Done: moved to Friday.');
    expect(summaryOf(record('y', 1, [{ role: 'user', content: 'x'.repeat(200) }]), 10)).toBe(`1 message · user: ${'x'.repeat(9)}…`);
    expect(summaryOf(record('z', 1))).toBe('No messages');
  });
});
