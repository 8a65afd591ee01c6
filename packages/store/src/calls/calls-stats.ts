// POST /calls/stats (Weave's call_stats): the database aggregates the window's calls by bucket
// (stats-query.ts); this writes the answer: every bucket of the window, in order (empty ones
// with sums, averages and counts 0 and minimums, maximums and percentiles null, as Weave's LEFT
// JOIN and COALESCE give them), and for usage every bucket × every model seen in the window.
// The work here is the answer's size (at most 10,000 buckets; usage rows capped), written with a
// turn for the event loop every few milliseconds.
//
// Costs, as Weave computes them after its query: each (bucket, model) row's summed tokens at the
// model's price, the project's newest (cost/create) else the catalogue's list price (the model's
// price ranking without a call time: project first, newest effective date first). The prompt is
// priced in three parts as a call's costs are (cache reads and writes at their own prices when
// the price has them), from the row's sums of input tokens, cache reads (OpenAI's cached_tokens,
// as call costs read them) and cache writes; whole tokens.
import { choosePrice, invalidField, priceUsage, priceUsageAtProjectPrice, TurnClock, type Catalogue, type TokenUsage } from '@weft/core';
import type * as T from '@weft/types';
import type { Db } from '../db/index.ts';
import { projectPrices } from '../costs/index.ts';
import { callBucketsQuery, COST_SUMS, usageBucketsQuery, type StatsRow } from './stats-query.ts';
import {
  aggregationKey,
  checkTimezone,
  isCost,
  MAX_USAGE_ROWS,
  metricColumns,
  resolveWindow,
  type MetricColumns,
  type StatsWindow,
} from './stats-window.ts';

type Bucket = Record<string, string | number | null>;
/** A model's price as Weave prices statistics: the project's newest, else the catalogue's. */
type Price = ReturnType<typeof choosePrice>;

export async function callsStats(db: Db, catalogue: Catalogue, req: T.CallStatsReq, now: Date = new Date()): Promise<T.CallStatsRes> {
  const timezone = checkTimezone(req.timezone ?? 'UTC');
  const callMetrics = metricColumns('call_metrics', req.call_metrics);
  const usageMetrics = metricColumns('usage_metrics', req.usage_metrics);
  const window = resolveWindow(req, now);
  const call_buckets = callMetrics.length === 0 ? [] : await callBuckets(db, req, window, callMetrics);
  const usage_buckets = usageMetrics.length === 0 ? [] : await usageBuckets(db, catalogue, req, window, usageMetrics);
  return {
    start: window.startIso,
    end: window.endIso,
    granularity: window.granularityS,
    timezone,
    usage_buckets: usage_buckets as T.UsageBucket[],
    call_buckets: call_buckets as T.CallBucket[],
  };
}

async function callBuckets(db: Db, req: T.CallStatsReq, window: StatsWindow, metrics: MetricColumns[]): Promise<Bucket[]> {
  const rows = await db.readLong<StatsRow>(callBucketsQuery(db, req, window, metrics).compile(db.kysely));
  const byBucket = new Map(rows.map((row) => [Number(row.b), row]));
  const buckets: Bucket[] = [];
  const clock = new TurnClock();
  for (let b = 0; b < window.buckets; b++) {
    buckets.push({ timestamp: bucketTime(window, b), ...values(metrics, byBucket.get(b)) });
    await clock.maybePass();
  }
  return buckets;
}

async function usageBuckets(
  db: Db,
  catalogue: Catalogue,
  req: T.CallStatsReq,
  window: StatsWindow,
  metrics: MetricColumns[],
): Promise<Bucket[]> {
  const withCosts = metrics.some((m) => isCost(m.metric));
  const rows = await db.readLong<StatsRow>(usageBucketsQuery(db, req, window, metrics, withCosts, MAX_USAGE_ROWS).compile(db.kysely));
  const models = [...new Set(rows.map((row) => String(row.model)))].sort(compareText);
  if (rows.length > MAX_USAGE_ROWS || models.length * window.buckets > MAX_USAGE_ROWS) {
    throw invalidField(
      ['body', 'granularity'],
      `The answer would have more than ${MAX_USAGE_ROWS} usage rows (buckets × models); ask for a coarser granularity, a shorter window or a narrower filter`,
    );
  }
  const prices = withCosts ? await projectPrices(db, req.project_id, models) : undefined;
  const chosen = new Map(models.map((model) => [model, prices && choosePrice(catalogue.byId(model), prices.get(model) ?? [], undefined)]));
  const byKey = new Map(rows.map((row) => [`${Number(row.b)}\u0000${String(row.model)}`, row]));
  const buckets: Bucket[] = [];
  const clock = new TurnClock();
  for (let b = 0; b < window.buckets; b++) {
    const timestamp = bucketTime(window, b);
    for (const model of models) {
      const row = byKey.get(`${b}\u0000${model}`);
      const costs = withCosts ? costsOf(chosen.get(model), row) : undefined;
      buckets.push({ timestamp, model, ...values(metrics, row, costs) });
    }
    await clock.maybePass();
  }
  return buckets;
}

/** A bucket's keys in the order asked, then `count`; an absent row is an empty bucket. */
function values(metrics: MetricColumns[], row: StatsRow | undefined, costs?: Record<string, number>): Bucket {
  const out: Bucket = {};
  for (const m of metrics) {
    for (const a of m.aggregations) {
      const key = aggregationKey(a, m.metric);
      if (isCost(m.metric)) out[key] = costs?.[m.metric] ?? 0;
      else out[key] = numberOrNull(row?.[key]) ?? (a === 'min' || a === 'max' ? null : 0);
    }
    for (const p of m.percentiles) out[p.key] = numberOrNull(row?.[p.key]);
  }
  out.count = numberOrNull(row?.count) ?? 0;
  return out;
}

/** input_cost, output_cost and total_cost of one (bucket, model) row; all 0 without a price or a row. */
function costsOf(chosen: Price | undefined, row: StatsRow | undefined): Record<string, number> {
  if (!chosen || !row) return { input_cost: 0, output_cost: 0, total_cost: 0 };
  const [input, output, cacheRead, cacheCreation] = COST_SUMS.map((name) => wholeTokens(row[name]));
  const cached = Math.min(cacheRead!, input!);
  const usage: TokenUsage = {
    prompt_tokens: input!,
    completion_tokens: output!,
    total_tokens: input! + output!,
    requests: Number(row.count),
    cached_tokens: cached,
    cache_creation_tokens: Math.min(cacheCreation!, input! - cached),
  };
  const entry = chosen.level === 'project' ? priceUsageAtProjectPrice(usage, chosen.price) : priceUsage(usage, chosen.model);
  const input_cost = entry.prompt_tokens_total_cost;
  const output_cost = entry.completion_tokens_total_cost;
  return { input_cost, output_cost, total_cost: input_cost + output_cost };
}

function wholeTokens(value: unknown): number {
  const n = numberOrNull(value) ?? 0;
  return Number.isFinite(n) && n > 0 ? Math.trunc(n) : 0;
}

/** PostgreSQL answers bigint and numeric as text. */
function numberOrNull(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  return Number(value);
}

function bucketTime(window: StatsWindow, b: number): string {
  return new Date(window.originMs + b * window.granularityS * 1000).toISOString();
}

// Models in code-unit order, the same whatever the database's collation.
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
