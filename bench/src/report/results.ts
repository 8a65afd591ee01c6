// What a scenario hands back: lines for the BENCHMARKS.md table (a measured figure, its
// baseline, their ratio, and the target the ratio is held to) and its raw figures for
// results/latest.json.

export interface Target {
  op: '>=' | '<=';
  value: number;
}

export interface Line {
  /** What was measured, e.g. "Weft req/s, 32 connections". */
  measure: string;
  /** The measured figure, formatted. */
  value: string;
  /** The baseline, named and formatted; empty when the line has none. */
  baseline: string;
  /** measured / baseline, oriented as the target reads; null when there is nothing to divide. */
  ratio: number | null;
  target?: Target;
  /** Held to the target instead of the ratio (an absolute limit such as peak RSS in MB). */
  absolute?: { value: number; unit: string };
}

export interface ScenarioResult {
  id: string;
  title: string;
  lines: Line[];
  /** Limits, caveats and one-off costs worth a sentence under the table. */
  notes: string[];
  raw: Record<string, unknown>;
}

export function passes(line: Line): boolean | null {
  const measured = line.absolute ? line.absolute.value : line.ratio;
  if (!line.target || measured === null) return null;
  return line.target.op === '>=' ? measured >= line.target.value : measured <= line.target.value;
}

export const fmt = {
  rate: (n: number, unit = 'req/s') => `${Math.round(n).toLocaleString('en-US')} ${unit}`,
  ms: (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(2)} s` : n >= 10 ? `${n.toFixed(1)} ms` : `${n.toFixed(2)} ms`),
  mbps: (n: number) => `${n.toFixed(1)} MB/s`,
  mb: (n: number) => `${Math.round(n)} MB`,
  ratio: (n: number) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n >= 0.01 ? n.toFixed(2) : n.toExponential(1)),
};
