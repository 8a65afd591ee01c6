import { describe, expect, it } from 'vitest';
import { judge, record } from './gate.ts';
import type { Line } from './results.ts';

const line = (ratio: number, op: '>=' | '<=', value: number): Line => ({
  measure: 'm',
  value: '',
  baseline: '',
  ratio,
  target: { op, value },
});

describe('the bench:check gate', () => {
  it('holds a met target to the target with a quarter of slack, whatever was recorded', () => {
    const rec = record([0.95, 0.9, 1]);
    expect(judge(line(0.61, '>=', 0.8), rec)).toMatchObject({ bar: 0.8, ok: true });
    expect(judge(line(0.59, '>=', 0.8), rec)).toMatchObject({ bar: 0.8, ok: false });
    expect(judge(line(1.99, '<=', 1.5), record([1.2]))).toMatchObject({ bar: 1.5, ok: true });
    expect(judge(line(2.01, '<=', 1.5), record([1.2]))).toMatchObject({ bar: 1.5, ok: false });
  });

  it('holds a missed target to its recorded median, so it cannot get worse unseen', () => {
    const rec = record([0.3, 0.28, 0.32, 0.31]);
    expect(rec).toEqual({ median: 0.305, min: 0.28, max: 0.32, runs: 4 });
    expect(judge(line(0.23, '>=', 0.8), rec)).toMatchObject({ bar: 0.305, ok: true });
    expect(judge(line(0.22, '>=', 0.8), rec)).toMatchObject({ bar: 0.305, ok: false });
    const slow = record([6, 5, 7]);
    expect(judge(line(7.9, '<=', 1.5), slow)).toMatchObject({ bar: 6, ok: true });
    expect(judge(line(8.1, '<=', 1.5), slow)).toMatchObject({ bar: 6, ok: false });
  });

  it('holds a line with nothing recorded to its target, and skips lines without one', () => {
    expect(judge(line(0.5, '>=', 0.8), undefined)).toMatchObject({ bar: 0.8, limit: 0.8 * 0.75, ok: false });
    expect(judge({ measure: 'm', value: '', baseline: '', ratio: 3 }, undefined)).toBeUndefined();
    expect(judge({ ...line(0, '<=', 300), ratio: null, absolute: { value: 380, unit: 'MB' } }, undefined)).toMatchObject({ ok: true });
    expect(judge({ ...line(0, '<=', 300), ratio: null, absolute: { value: 401, unit: 'MB' } }, undefined)).toMatchObject({ ok: false });
  });
});
