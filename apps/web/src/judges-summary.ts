// The Judges page's rows: each Monitor object of the project with what its judgements did (all its
// versions, every scorer), and calls/score's judgements per scorer. No React: tested beside it.
import type { JudgementGroup } from '@weft/types';
import { refName } from './eval-compare.ts';

/** What a monitor's or a scorer's judgements did: both tables' count columns. */
export interface JudgedCounts {
  done: number;
  /** Queued or running. */
  pending: number;
  failed: number;
  cost_usd: number;
  last_done_at: string | null;
}

export interface MonitorRow extends JudgedCounts {
  name: string;
  active: boolean;
  sampling_rate: number | undefined;
  op_names: string[];
  scorers: number;
}

export interface ScorerRow extends JudgedCounts {
  scorer_ref: string;
  scorer: string;
}

const NONE: JudgedCounts = { done: 0, pending: 0, failed: 0, cost_usd: 0, last_done_at: null };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const later = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : a > b ? a : b);

export function monitorRows(monitors: { object_id: string; val: unknown }[], groups: JudgementGroup[]): MonitorRow[] {
  const rows = new Map<string, MonitorRow>();
  for (const m of monitors) {
    const val = isObj(m.val) ? m.val : {};
    const filter = isObj(val.call_filter) ? val.call_filter : {};
    rows.set(m.object_id, {
      name: m.object_id,
      active: val.active === true,
      sampling_rate: typeof val.sampling_rate === 'number' ? val.sampling_rate : undefined,
      op_names: Array.isArray(filter.op_names) ? filter.op_names.filter((o): o is string => typeof o === 'string') : [],
      scorers: Array.isArray(val.scorers) ? val.scorers.length : 0,
      ...NONE,
    });
  }
  for (const g of groups) {
    if (g.monitor === null) continue;
    // A deleted monitor's judgements still count: its row says it is gone.
    let row = rows.get(g.monitor);
    if (!row) {
      row = { name: g.monitor, active: false, sampling_rate: undefined, op_names: [], scorers: 0, ...NONE };
      rows.set(g.monitor, row);
    }
    row.done += g.done;
    row.pending += g.queued + g.running;
    row.failed += g.failed;
    row.cost_usd += g.cost_usd;
    row.last_done_at = later(row.last_done_at, g.last_done_at);
  }
  return [...rows.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export function requestedRows(groups: JudgementGroup[]): ScorerRow[] {
  return groups
    .filter((g) => g.monitor === null)
    .map((g) => ({
      scorer_ref: g.scorer_ref,
      scorer: refName(g.scorer_ref),
      done: g.done,
      pending: g.queued + g.running,
      failed: g.failed,
      cost_usd: g.cost_usd,
      last_done_at: g.last_done_at,
    }));
}
