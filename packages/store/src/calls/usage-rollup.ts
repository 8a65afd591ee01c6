// The usage routes' arithmetic (Weave's usage_utils.aggregate_usage_with_descendants): each call's
// own usage per model, then every call's usage plus all its descendants', merged bottom-up from
// the leaves (no recursion, so a deep trace cannot overflow the stack; a parent cycle in stored
// data is simply never merged). Work is linear in the calls read, with a turn for the event loop
// every few milliseconds.
//
// Tokens are read as call costs read them (readUsage), so a call's usage and its costs agree;
// `requests` is Weave's (the stored count, else 0), so an empty entry is no usage;
// with costs, each call is priced by callCosts, the path include_costs prices calls with, at the
// price in effect when that call started, and the per-call costs are summed.
import { readUsage, TurnClock, type CostEntry } from '@weft/core';
import type * as T from '@weft/types';
import { callCosts, type CostSource } from './derive-summary.ts';

/** A call as the usage routes read it. */
export interface UsageRow {
  id: string;
  parent_id: string | null;
  started_at: string;
  ended_at: string | null;
  /** The stored summary, parsed. */
  summary: unknown;
}

type Usage = T.LlmAggregatedUsage;
/** Model → usage; a Map, since model ids are client data (a "__proto__" model must stay a key). */
type ModelUsage = Map<string, Usage>;

/** Call id → model → usage over the call and its descendants among `rows`, in `rows` order. */
export async function rollUp(rows: readonly UsageRow[], costs: CostSource | undefined): Promise<Map<string, ModelUsage>> {
  const clock = new TurnClock();
  const own = new Map<string, ModelUsage>();
  for (const row of rows) {
    own.set(row.id, ownUsage(row.summary, row.started_at, costs));
    await clock.maybePass();
  }
  const pending = new Map<string, number>(rows.map((r) => [r.id, 0]));
  const parentOf = new Map<string, string>();
  for (const row of rows) {
    if (row.parent_id !== null && row.parent_id !== row.id && pending.has(row.parent_id)) {
      pending.set(row.parent_id, pending.get(row.parent_id)! + 1);
      parentOf.set(row.id, row.parent_id);
    }
  }
  const queue = [...pending].filter(([, n]) => n === 0).map(([id]) => id);
  for (let i = 0; i < queue.length; i++) {
    const id = queue[i]!;
    const parent = parentOf.get(id);
    if (parent === undefined) continue;
    merge(own.get(parent)!, own.get(id)!);
    const left = pending.get(parent)! - 1;
    pending.set(parent, left);
    if (left === 0) queue.push(parent);
    await clock.maybePass();
  }
  return own;
}

/** One call's usage by model; entries with no tokens, requests or cost are left out, as Weave leaves them. */
function ownUsage(summary: unknown, startedAt: string, costs: CostSource | undefined): ModelUsage {
  const out: ModelUsage = new Map();
  if (!isRecord(summary) || !isRecord(summary.usage)) return out;
  const priced = costs ? callCosts(summary, startedAt, costs) : undefined;
  for (const [model, raw] of Object.entries(summary.usage)) {
    if (!isRecord(raw)) continue;
    const tokens = readUsage(raw);
    const cost = priced && Object.hasOwn(priced, model) ? priced[model] : undefined;
    const cacheRead = tokens.cached_tokens || Math.min(count(raw.cache_read_input_tokens), tokens.prompt_tokens);
    const usage: Usage = {
      // As stored (absent: 0), as Weave counts them; call costs assume 1 for their own purpose.
      requests: count(raw.requests),
      prompt_tokens: tokens.prompt_tokens,
      completion_tokens: tokens.completion_tokens,
      total_tokens: tokens.total_tokens,
      cache_read_input_tokens: cacheRead,
      cache_creation_input_tokens: tokens.cache_creation_tokens,
      ...costsOf(costs !== undefined, cost, tokens.prompt_tokens - cacheRead - tokens.cache_creation_tokens),
    };
    if (hasUsage(usage)) out.set(model, usage);
  }
  return out;
}

/**
 * Null without include_costs; with it, 0 for a model no price applies to (Weave's 0.0). As Weave
 * prices usage, the four costs add up: the prompt's is its uncached tokens at the prompt price
 * (Weft's call costs put the cache's parts inside the prompt's instead).
 */
function costsOf(included: boolean, cost: CostEntry | undefined, uncachedPromptTokens: number) {
  if (!included) {
    return {
      prompt_tokens_total_cost: null,
      completion_tokens_total_cost: null,
      cache_read_input_tokens_total_cost: null,
      cache_creation_input_tokens_total_cost: null,
    };
  }
  return {
    prompt_tokens_total_cost: cost ? Math.max(0, uncachedPromptTokens) * cost.prompt_token_cost : 0,
    completion_tokens_total_cost: cost?.completion_tokens_total_cost ?? 0,
    cache_read_input_tokens_total_cost: cost?.cached_tokens_total_cost ?? 0,
    cache_creation_input_tokens_total_cost: cost?.cache_creation_input_tokens_total_cost ?? 0,
  };
}

function hasUsage(u: Usage): boolean {
  if (u.requests || u.prompt_tokens || u.completion_tokens || u.total_tokens) return true;
  return Boolean(u.prompt_tokens_total_cost || u.completion_tokens_total_cost);
}

const SUMMED = [
  'requests',
  'prompt_tokens',
  'completion_tokens',
  'total_tokens',
  'cache_read_input_tokens',
  'cache_creation_input_tokens',
] as const;
const COSTS = [
  'prompt_tokens_total_cost',
  'completion_tokens_total_cost',
  'cache_read_input_tokens_total_cost',
  'cache_creation_input_tokens_total_cost',
] as const;

function merge(target: ModelUsage, source: ModelUsage): void {
  for (const [model, usage] of source) {
    const existing = target.get(model);
    if (!existing) {
      target.set(model, { ...usage });
      continue;
    }
    for (const key of SUMMED) existing[key] += usage[key];
    for (const key of COSTS) {
      const a = existing[key];
      const b = usage[key];
      existing[key] = a === null && b === null ? null : (a ?? 0) + (b ?? 0);
    }
  }
}

/** The wire's `{model: usage}` object of one call (defineProperty: model ids are client data). */
export function usageObject(usage: ModelUsage | undefined): Record<string, Usage> {
  const out: Record<string, Usage> = {};
  for (const [model, u] of usage ?? []) define(out, model, u);
  return out;
}

export function define<V>(target: Record<string, V>, key: string, value: V): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.trunc(value) : 0;
}
