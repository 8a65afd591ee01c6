// The aggregates ART computes when it logs a batch (OpenPipe/ART Model.log), over the whole
// request, keyed `<split>/<name>`:
//   reward          mean reward over all trajectories (absent when there are none)
//   exception_rate  exceptions / (trajectories + exceptions)
//   <metric>        mean of a trajectory metric over the trajectories that have it (true = 1)
//   reward_std_dev  mean over groups with more than one trajectory of the population standard
//                   deviation of their rewards; 0 when no group qualifies
//   group/<metric>  mean of a group metric over the groups that have it and have trajectories
// As in ART, a trajectory metric named `reward` or `exception_rate` is averaged together with
// those series (one dict of lists there), and `reward_std_dev` is always the computed one.
// Values that are not finite (NaN, or a sum overflowing to ±Infinity) are dropped: ART drops NaN,
// and JSON has no Infinity.
import { invalidRequest } from '@weft/core';

type Json = Record<string, unknown>;

/** A mean's sum and count: what a log stores so means can be combined across logs. */
export type SumCount = [sum: number, n: number];

/**
 * A log's aggregates before division (stored with the log): the trajectory series, the group
 * series and the standard deviations of the groups that have more than one trajectory.
 */
export interface LogSums {
  series: Record<string, SumCount>;
  group: Record<string, SumCount>;
  std: SumCount;
}

/** A running mean: sums left to right like Python's sum(values) / len(values). */
class Mean {
  private sum = 0;
  private n = 0;
  add(value: number): void {
    this.sum += value;
    this.n += 1;
  }
  get value(): number | undefined {
    return this.n === 0 ? undefined : this.sum / this.n;
  }
  get sumCount(): SumCount {
    return [this.sum, this.n];
  }
}

/**
 * ART's aggregates, fed one trajectory at a time (then its group): only the running means and
 * the current group's rewards are kept.
 */
export class LogMetrics {
  private readonly series = new Map<string, Mean>([
    ['reward', new Mean()],
    ['exception_rate', new Mean()],
  ]);
  private readonly groupSeries = new Map<string, Mean>();
  private readonly stdDevs = new Mean();
  private rewards: number[] = [];

  addTrajectory(trajectory: Json, g: number, t: number): void {
    const reward = trajectory.reward ?? 0;
    if (typeof reward !== 'number') throw invalidRequest(`trajectory_groups[${g}].trajectories[${t}].reward must be a number`);
    this.rewards.push(reward);
    meanOf(this.series, 'exception_rate').add(0);
    meanOf(this.series, 'reward').add(reward);
    for (const [name, value] of Object.entries((trajectory.metrics ?? {}) as Json)) {
      meanOf(this.series, name).add(metricValue(value, `trajectory_groups[${g}].trajectories[${t}].metrics.${name}`));
    }
  }

  /** After the group's trajectories; `group` may or may not still hold them. */
  endGroup(group: Json, g: number, trajectoryCount: number): void {
    if (trajectoryCount > 0) {
      for (const [name, value] of Object.entries((group.metrics ?? {}) as Json)) {
        meanOf(this.groupSeries, name).add(metricValue(value, `trajectory_groups[${g}].metrics.${name}`));
      }
    }
    // Exceptions only add ones to a series of zeros and ones: their place in the sum is exact.
    for (let i = 0; i < ((group.exceptions ?? []) as unknown[]).length; i++) meanOf(this.series, 'exception_rate').add(1);
    if (this.rewards.length > 1) this.stdDevs.add(populationStdDev(this.rewards));
    this.rewards = [];
  }

  /** The sums behind result(), to combine with other logs' (metricsOfSums). */
  sums(): LogSums {
    const entries = (map: Map<string, Mean>) => Object.fromEntries([...map].map(([name, mean]) => [name, mean.sumCount]));
    return { series: entries(this.series), group: entries(this.groupSeries), std: this.stdDevs.sumCount };
  }

  result(split: string): Record<string, number> {
    return metricsOfSums([this.sums()], `${split}/`);
  }
}

/**
 * ART's aggregates over one or more logs' sums, keyed `<prefix><name>`: each series' sum over
 * its count; reward_std_dev 0 when no group qualifies; values that are not finite dropped.
 */
export function metricsOfSums(all: readonly LogSums[], prefix = ''): Record<string, number> {
  const metrics: Record<string, number> = {};
  const put = (key: string, value: number | undefined) => {
    if (value !== undefined && Number.isFinite(value)) {
      // defineProperty: a metric named "__proto__" must stay a key.
      Object.defineProperty(metrics, `${prefix}${key}`, { value, enumerable: true, writable: true, configurable: true });
    }
  };
  // A sum that overflowed was stored as JSON null: it stays not finite, so its mean is dropped.
  const num = (v: number | null) => (typeof v === 'number' ? v : NaN);
  const combined = (pick: (s: LogSums) => Record<string, SumCount>) => {
    const out = new Map<string, SumCount>();
    for (const sums of all) {
      for (const [name, [rawSum, n]] of Object.entries(pick(sums))) {
        const sum = num(rawSum);
        const seen = out.get(name);
        out.set(name, seen ? [seen[0] + sum, seen[1] + n] : [sum, n]);
      }
    }
    return out;
  };
  const mean = ([sum, n]: SumCount) => (n === 0 ? undefined : sum / n);
  for (const [name, sc] of combined((s) => s.series)) put(name, mean(sc));
  const std = all.reduce<SumCount>((acc, s) => [acc[0] + num(s.std[0]), acc[1] + s.std[1]], [0, 0]);
  put('reward_std_dev', mean(std) ?? 0);
  for (const [name, sc] of combined((s) => s.group)) put(`group/${name}`, mean(sc));
  return metrics;
}

function meanOf(map: Map<string, Mean>, key: string): Mean {
  let mean = map.get(key);
  if (!mean) map.set(key, (mean = new Mean()));
  return mean;
}

/** numpy.std with ddof=0: the mean first, then the mean squared deviation. */
export function populationStdDev(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  const mean = sum / values.length;
  let squares = 0;
  for (const v of values) squares += (v - mean) ** 2;
  return Math.sqrt(squares / values.length);
}

function metricValue(value: unknown, path: string): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  throw invalidRequest(`${path} must be a number or a boolean`);
}
