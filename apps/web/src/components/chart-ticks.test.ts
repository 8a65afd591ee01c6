import { describe, expect, it } from 'vitest';
import { niceTicks } from './chart-ticks.ts';

describe('niceTicks', () => {
  it('puts the y axis on round values that cover the data', () => {
    expect(niceTicks(0, 2355)).toEqual([0, 500, 1000, 1500, 2000, 2500]);
    expect(niceTicks(0, 6)).toEqual([0, 2, 4, 6]);
    expect(niceTicks(0, 150)).toEqual([0, 50, 100, 150]);
    expect(niceTicks(0, 24)).toEqual([0, 5, 10, 15, 20, 25]);
    expect(niceTicks(0, 0.0021)).toEqual([0, 0.0005, 0.001, 0.0015, 0.002, 0.0025]);
    expect(niceTicks(0.31, 0.69)).toEqual([0.3, 0.4, 0.5, 0.6, 0.7]);
    expect(niceTicks(-3, 7)).toEqual([-4, -2, 0, 2, 4, 6, 8]);
  });

  it('keeps a single value as it is', () => {
    expect(niceTicks(0.692, 0.692)).toEqual([0.692]);
  });
});
