// What a LineChart's hover readout shows (line-chart.tsx): the x nearest the pointer among the
// values the series hold, and each series' value there. Pure, so that it is tested on its own.

export interface Series {
  name: string;
  points: Array<{ x: number; y: number | null; band?: [number, number] }>;
}

export interface ChartPoint {
  x: number;
  y: number;
  band?: [number, number];
}

/** Every x that some series holds a value at, ascending, once each. */
export function xsOf(series: readonly Series[]): number[] {
  return [...new Set(series.flatMap((s) => s.points.filter((p) => p.y !== null).map((p) => p.x)))].sort((a, b) => a - b);
}

/** The value of `sorted` (ascending, non-empty) nearest `x`; the smaller of two as near. */
export function nearest(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  // The first value >= x, by bisection: its predecessor is the only other candidate.
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  const after = sorted[lo]!;
  const before = sorted[lo - 1];
  return before !== undefined && x - before <= after - x ? before : after;
}

/** The x `by` places from `x` in `sorted` (the keyboard's ← and →), held within its ends. */
export function stepFrom(sorted: readonly number[], x: number | null, by: number): number {
  if (x === null) return by < 0 ? sorted[sorted.length - 1]! : sorted[0]!;
  const i = sorted.indexOf(nearest(sorted, x));
  return sorted[Math.min(sorted.length - 1, Math.max(0, i + by))]!;
}

/** Each series that holds a value at exactly `x`, with that value (and its band). */
export function valuesAt(series: readonly Series[], x: number): Array<{ index: number; name: string; point: ChartPoint }> {
  return series.flatMap((s, index) => {
    const point = s.points.find((p) => p.x === x && p.y !== null);
    return point ? [{ index, name: s.name, point: point as ChartPoint }] : [];
  });
}
