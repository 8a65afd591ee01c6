// A call's token usage and cost per model (summary.usage joined with summary.weave.costs), a
// trace's totals over all its calls, and any other value as a flat list of fields for a table.
// Each call's summary.usage is its own (the server's usage routes roll descendants up from it in
// the same way), so a trace's totals are the sums over its calls.
import type { CallSchema } from '@weft/types';
import { costOf, latencyOf, statusOf } from './call-facts.ts';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {});
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

export interface ModelUsage {
  model: string;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** Dollars (prompt + completion); undefined when the call was read without costs or the model has no price. */
  cost: number | undefined;
}

/** One row per model named in the call's usage or costs, in the order the summary names them. */
export function usageByModel(call: Pick<CallSchema, 'summary'>): ModelUsage[] {
  const summary = obj(call.summary);
  const usage = obj(summary.usage);
  const costs = obj(obj(summary.weave).costs);
  const models = [...new Set([...Object.keys(usage), ...Object.keys(costs)])];
  return models.map((model) => {
    const u = obj(usage[model]);
    const c = obj(costs[model]);
    const inputTokens = num(u.prompt_tokens) ?? num(u.input_tokens) ?? num(c.prompt_tokens) ?? 0;
    const outputTokens = num(u.completion_tokens) ?? num(u.output_tokens) ?? num(c.completion_tokens) ?? 0;
    const priced = costs[model] !== undefined;
    return {
      model,
      requests: num(u.requests) ?? num(c.requests) ?? 1,
      inputTokens,
      outputTokens,
      totalTokens: num(u.total_tokens) ?? num(c.total_tokens) ?? inputTokens + outputTokens,
      cost: priced ? (num(c.prompt_tokens_total_cost) ?? 0) + (num(c.completion_tokens_total_cost) ?? 0) : undefined,
    };
  });
}

export interface TraceTotals {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** Undefined when no call of the trace has a cost. */
  cost: number | undefined;
  /** From the first start to the last end; undefined while a call runs. */
  latencyMs: number | undefined;
  /** Calls that failed themselves (not those that only have a failed descendant). */
  errors: number;
  running: number;
}

export function traceTotals(calls: readonly CallSchema[]): TraceTotals {
  const totals: TraceTotals = {
    calls: calls.length,
    inputTokens: 0,
    outputTokens: 0,
    totalTokens: 0,
    cost: undefined,
    latencyMs: 0,
    errors: 0,
    running: 0,
  };
  let first = Infinity;
  let last = -Infinity;
  for (const call of calls) {
    for (const m of usageByModel(call)) {
      totals.inputTokens += m.inputTokens;
      totals.outputTokens += m.outputTokens;
      totals.totalTokens += m.totalTokens;
    }
    const cost = costOf(call);
    if (cost !== undefined) totals.cost = (totals.cost ?? 0) + cost;
    const status = statusOf(call);
    if (status === 'error') totals.errors++;
    if (status === 'running') totals.running++;
    first = Math.min(first, Date.parse(call.started_at));
    if (latencyOf(call) !== undefined) last = Math.max(last, Date.parse(call.ended_at!));
  }
  totals.latencyMs = calls.length === 0 || totals.running > 0 ? undefined : Math.max(0, last - first);
  return totals;
}

export interface Field {
  /** Dot path from the value's top (`weave.status`); '' for a scalar value itself. */
  path: string;
  /** A scalar as text; an empty list or object as `[]` / `{}`. */
  text: string;
}

const MAX_FIELDS = 500;

/**
 * The scalars of a value as path and text, depth first in the value's own key order. Lists of
 * scalars stay one field (`["a","b"]`), so a list of tags reads as one line; an empty value has
 * no fields. Stops at 500 fields.
 */
export function flatFields(value: unknown, skip: (path: string) => boolean = () => false): Field[] {
  const out: Field[] = [];
  const visit = (v: unknown, path: string) => {
    if (out.length >= MAX_FIELDS || (path !== '' && skip(path))) return;
    if (v === null || typeof v !== 'object') {
      out.push({ path, text: typeof v === 'string' ? v : (JSON.stringify(v) ?? '') });
      return;
    }
    const entries: Array<[string, unknown]> = Array.isArray(v) ? v.map((x, i) => [String(i), x]) : Object.entries(v);
    if (entries.length === 0 && path === '') return; // nothing to list
    if (entries.length === 0 || (Array.isArray(v) && v.every((x) => x === null || typeof x !== 'object'))) {
      out.push({ path, text: JSON.stringify(v) });
      return;
    }
    for (const [k, x] of entries) visit(x, path === '' ? k : `${path}.${k}`);
  };
  visit(value, '');
  return out;
}
