// The regression gate of `pnpm bench:check`: a ratio fails when it is more than a quarter worse
// than what it is held to. A line whose target is met is held to its target; a line whose target
// is still missed is held to its recorded figure (check-baseline.json), so a missed target
// cannot get quietly worse while it waits for its fix, and the gate is not red from its first run.
import type { Line } from './results.ts';

/** How much worse than its bar a figure may be before the gate fails it. */
export const SLACK = 0.25;

export interface Recorded {
  /** The median of the recorded runs. */
  median: number;
  min: number;
  max: number;
  runs: number;
}

export interface Verdict {
  measure: string;
  figure: number;
  op: '>=' | '<=';
  target: number;
  /** What the figure is held to: the target, or the recorded median when that misses the target. */
  bar: number;
  /** The figure the gate fails beyond: the bar with the slack. */
  limit: number;
  ok: boolean;
}

const better = (op: '>=' | '<=', a: number, b: number) => (op === '>=' ? a >= b : a <= b);

/** The verdict on one line, or undefined for a line with no target or no figure. */
export function judge(line: Line, recorded: Recorded | undefined): Verdict | undefined {
  const figure = line.absolute ? line.absolute.value : line.ratio;
  if (!line.target || figure === null || !Number.isFinite(figure)) return undefined;
  const { op, value: target } = line.target;
  // A recorded figure worse than the target becomes the bar; a better one never tightens it.
  const bar = recorded && !better(op, recorded.median, target) ? recorded.median : target;
  // "A quarter worse" in the figure's own direction: a throughput at 0.75× the bar, a time at bar / 0.75.
  const limit = op === '>=' ? bar * (1 - SLACK) : bar / (1 - SLACK);
  return { measure: line.measure, figure, op, target, bar, limit, ok: better(op, figure, limit) };
}

/** The median, min and max of a line's figures over several runs. */
export function record(figures: readonly number[]): Recorded {
  const sorted = [...figures].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return { median, min: sorted[0] as number, max: sorted[sorted.length - 1] as number, runs: sorted.length };
}
