import { describe, expect, it } from 'vitest';
import { nearest, stepFrom, valuesAt, xsOf, type Series } from './chart-readout.ts';

const series: Series[] = [
  { name: 'train', points: [0, 1, 2, 3, 4].map((x) => ({ x, y: x / 10, ...(x === 2 ? { band: [0.1, 0.3] as [number, number] } : {}) })) },
  {
    name: 'val',
    points: [
      { x: 0, y: 0.5 },
      { x: 2, y: null },
      { x: 4, y: 0.9 },
      { x: 10, y: 1 },
    ],
  },
];

describe('the hover readout', () => {
  it('collects the xs the series hold values at, without gaps', () => {
    expect(xsOf(series)).toEqual([0, 1, 2, 3, 4, 10]);
    expect(xsOf([])).toEqual([]);
  });

  it('finds the nearest x, the smaller of two as near', () => {
    const xs = [0, 1, 2, 3, 4, 10];
    expect(nearest(xs, -5)).toBe(0);
    expect(nearest(xs, 2.4)).toBe(2);
    expect(nearest(xs, 2.6)).toBe(3);
    expect(nearest(xs, 3.5)).toBe(3);
    expect(nearest(xs, 6.9)).toBe(4);
    expect(nearest(xs, 7.1)).toBe(10);
    expect(nearest(xs, 99)).toBe(10);
    expect(nearest([7], 0)).toBe(7);
  });

  it('moves by whole xs from the keyboard, held within the ends', () => {
    const xs = [0, 2, 4];
    expect(stepFrom(xs, null, 1)).toBe(0);
    expect(stepFrom(xs, null, -1)).toBe(4);
    expect(stepFrom(xs, 2, 1)).toBe(4);
    expect(stepFrom(xs, 4, 1)).toBe(4);
    expect(stepFrom(xs, 0, -1)).toBe(0);
  });

  it('reads each series’ value at an x, skipping series with none there', () => {
    expect(valuesAt(series, 2)).toEqual([{ index: 0, name: 'train', point: { x: 2, y: 0.2, band: [0.1, 0.3] } }]);
    expect(valuesAt(series, 4).map((v) => [v.name, v.point.y])).toEqual([
      ['train', 0.4],
      ['val', 0.9],
    ]);
    expect(valuesAt(series, 10).map((v) => v.index)).toEqual([1]);
  });
});
