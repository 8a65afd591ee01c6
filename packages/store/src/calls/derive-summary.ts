// `summary.weave`, derived at read time from the call itself, as Weave's
// make_derived_summary_fields does (weave/trace_server/trace_server_common.py): whatever a client
// stored under status, trace_name, latency_ms and display_name is replaced; other keys under
// `weave` (costs, feedback, …) and the rest of the summary are returned as stored.
import { computeCosts, isPlainDecimalString, type Catalogue, type CostEntry, type RecordedPrice } from '@weft/core';
import type { PriceBook } from '../costs/index.ts';

/** What include_costs prices with: the project's own prices (of the page's models), then the catalogue's. */
export interface CostSource {
  catalogue: Catalogue;
  prices: PriceBook;
}

export interface SummarySource {
  /** The stored summary (null before the end arrived). */
  summary: unknown;
  op_name: string;
  display_name: string | null;
  started_at: string;
  ended_at: string | null;
  exception: string | null;
}

export type WeaveStatus = 'success' | 'error' | 'running' | 'descendant_error';

const DERIVED_KEYS = new Set(['status', 'trace_name', 'latency_ms', 'display_name']);
// `<scheme>:///<entity>/<project>/op/<name>:<digest>`; names contain neither '/' nor ':'.
const OP_REF = /^[a-z][a-z0-9+.-]*:\/\/\/[^/]+\/[^/]+\/op\/([^/:]+):[^/:]+$/i;

/** The summary to return. `costs` set means include_costs: add `weave.costs` when priced. */
export function deriveSummary(call: SummarySource, costs?: CostSource): Record<string, unknown> {
  const stored = isRecord(call.summary) ? call.summary : {};
  const weave: Record<string, unknown> = {};
  if (isRecord(stored.weave)) {
    for (const [key, value] of Object.entries(stored.weave)) {
      if (!DERIVED_KEYS.has(key)) define(weave, key, value);
    }
  }

  weave.status = statusOf(call, stored);
  if (call.ended_at !== null) weave.latency_ms = latencyMs(call.started_at, call.ended_at);
  if (call.display_name) weave.display_name = call.display_name;
  else weave.trace_name = traceName(call.op_name);

  if (costs) {
    const priced = callCosts(stored, call.started_at, costs);
    if (priced !== undefined) weave.costs = priced;
  }

  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(stored)) define(out, key, value);
  out.weave = weave;
  return out;
}

/**
 * A call's `summary.weave.costs` (undefined when nothing could be priced): its usage at the
 * prices in effect when it started. The one pricing path of include_costs and the usage routes.
 */
export function callCosts(stored: Record<string, unknown>, startedAt: string, costs: CostSource): Record<string, CostEntry> | undefined {
  return computeCosts(stored.usage, costs.catalogue, {
    prices: (id) => costs.prices.get(id) ?? [],
    startedAt,
    recorded: recordedPrice(stored.gateway),
  });
}

/**
 * The price the inference router recorded with its call (summary.gateway, written by the server's
 * router recorder), when it is whole: stored summaries are client data, checked before use.
 */
function recordedPrice(gateway: unknown): RecordedPrice | undefined {
  if (!isRecord(gateway) || !isRecord(gateway.pricing)) return undefined;
  const { model, provider, pricing } = gateway;
  const { prompt, completion, input_cache_read } = pricing;
  if (typeof model !== 'string' || typeof provider !== 'string') return undefined;
  if (!isPlainDecimalString(prompt) || !isPlainDecimalString(completion) || !isPlainDecimalString(input_cache_read)) return undefined;
  return { model, provider, pricing: { prompt, completion, input_cache_read } };
}

export function statusOf(call: Pick<SummarySource, 'exception' | 'ended_at'>, summary: Record<string, unknown>): WeaveStatus {
  if (call.exception) return 'error';
  if (call.ended_at === null) return 'running';
  const counts = summary.status_counts;
  if (isRecord(counts) && typeof counts.error === 'number' && counts.error > 0) return 'descendant_error';
  return 'success';
}

/** Whole milliseconds, truncated toward zero (Python's int() of the float difference). */
function latencyMs(startedAt: string, endedAt: string): number {
  return Math.trunc(Date.parse(endedAt) - Date.parse(startedAt));
}

/** The op's name for an op ref, else the op name as sent. */
export function traceName(opName: string): string {
  return OP_REF.exec(opName)?.[1] ?? opName;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Stored keys are client data: a key named "__proto__" must stay a plain key.
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
