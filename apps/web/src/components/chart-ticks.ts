// The axes' values and the lines' runs of a LineChart (line-chart.tsx), kept apart from its SVG.
import type { ChartPoint, Series } from './chart-readout.ts';

/** `n` equal intervals from min to max (steps: the axis reads whole steps once rounded). */
export function ticks(min: number, max: number, n = 4): number[] {
  if (min === max) return [min];
  const step = (max - min) / n;
  return Array.from({ length: n + 1 }, (_, i) => min + i * step);
}

/**
 * About `n` intervals at round values (1, 2 or 5 times a power of ten, as d3's ticks choose them)
 * covering [min, max]: the y axis reads 0, 500, 1,000 rather than 0, 588.8, 1,177.6. The axis
 * then spans the first to the last tick.
 */
export function niceTicks(min: number, max: number, n = 4): number[] {
  if (min === max || !Number.isFinite(max - min)) return [min];
  const rough = (max - min) / n;
  const power = 10 ** Math.floor(Math.log10(rough));
  const error = rough / power;
  const step = power * (error >= Math.sqrt(50) ? 10 : error >= Math.sqrt(10) ? 5 : error >= Math.SQRT2 ? 2 : 1);
  const first = Math.floor(min / step);
  const last = Math.ceil(max / step);
  // Products of integers and the step, rounded to the step's precision so 0.1 × 3 reads 0.3.
  const digits = Math.max(0, -Math.floor(Math.log10(step)) + 1);
  return Array.from({ length: last - first + 1 }, (_, i) => Number(((first + i) * step).toFixed(digits)));
}

/** At most `n` values of `sorted`, evenly spread, the first and the last included. */
export function spread(sorted: number[], n: number): number[] {
  if (sorted.length <= n) return sorted;
  return Array.from({ length: n }, (_, i) => sorted[Math.round((i * (sorted.length - 1)) / (n - 1))]!);
}

/** Runs of consecutive non-null points: a null breaks the line. */
export function segments(points: Series['points']): ChartPoint[][] {
  const out: ChartPoint[][] = [[]];
  for (const p of [...points].sort((a, b) => a.x - b.x)) {
    if (p.y === null) out.push([]);
    else out[out.length - 1]!.push(p as ChartPoint);
  }
  return out.filter((s) => s.length > 0);
}
