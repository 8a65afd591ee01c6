// calls/usage and trace/usage (Weave's calls_usage and trace_usage): the visible calls (started,
// not deleted) of the project are read in SQL, at most `limit` (≤ 10,000) at a time, and rolled up
// per model over descendants in usage-rollup.ts.
//
// calls/usage reads the roots' traces whole, as Weave does: the database counts each trace's
// calls (trace id index), the traces are packed into batches of at most `limit` calls, and each
// batch is read and rolled up on its own. A batch that grew past `limit` meanwhile is split in
// halves (Weave's own recovery); one trace of more than `limit` calls is refused (413), never
// answered in part. The traces of one request may hold at most MAX_USAGE_CALLS calls, so the
// work of a request stays bounded.
import { invalidField, mapInTurns, tooLarge, type Catalogue } from '@weft/core';
import type * as T from '@weft/types';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import { projectPrices, usageModels } from '../costs/index.ts';
import { readJson, type Database, type Db } from '../db/index.ts';
import { callsQueryCondition } from './calls-query-fields.ts';
import { filterOf } from './calls-stream-query.ts';
import { define, rollUp, usageObject, type UsageRow } from './usage-rollup.ts';

/** Weave's default limit, and Weft's most. */
export const MAX_USAGE_LIMIT = 10_000;
/** The most calls one calls/usage request reads over all its batches. */
export const MAX_USAGE_CALLS = 100_000;
/** Ids per IN list: well within both databases' bind limits. */
const CHUNK = 500;

type Condition = (eb: ExpressionBuilder<Database, 'calls'>) => Expression<SqlBool>;

/** `maxCalls` is a parameter for tests; callers use the default. */
export async function callsUsage(
  db: Db,
  catalogue: Catalogue,
  req: T.CallsUsageReq,
  maxCalls: number = MAX_USAGE_CALLS,
): Promise<T.CallsUsageRes> {
  const limit = checkLimit(req.limit);
  const call_usage: T.CallUsageMap = {};
  for (const id of req.call_ids) define(call_usage, id, {});
  const roots = new Set(req.call_ids);
  const sizes = await traceSizes(db, req.project_id, await rootTraces(db, req.project_id, [...roots]));
  const total = [...sizes.values()].reduce((a, b) => a + b, 0);
  if (total > maxCalls) {
    throw tooLarge(`The roots' traces have ${total} calls, more than the ${maxCalls} one request may read; ask for fewer roots`);
  }
  const pending = packTraces(sizes, limit);
  const unfinished: string[] = [];
  while (pending.length > 0) {
    const batch = pending.pop()!;
    const rows = await readCalls(db, filterOf(db, req.project_id, { trace_ids: batch }), undefined, limit);
    if (rows.length > limit) {
      if (batch.length === 1) throw traceTooLarge(limit);
      const half = Math.ceil(batch.length / 2);
      pending.push(batch.slice(0, half), batch.slice(half));
      continue;
    }
    const usage = await rollUp(rows, await costSource(db, catalogue, req.project_id, req.include_costs, rows));
    for (const row of rows) {
      if (roots.has(row.id)) define(call_usage, row.id, usageObject(usage.get(row.id)));
      if (row.ended_at === null) unfinished.push(row.id);
    }
  }
  return { call_usage, unfinished_call_ids: unfinished.sort(compareText) };
}

export async function traceUsage(db: Db, catalogue: Catalogue, req: T.TraceUsageReq): Promise<T.TraceUsageRes> {
  const limit = checkLimit(req.limit);
  const rows = await readCalls(db, filterOf(db, req.project_id, req.filter ?? {}), callsQueryCondition(db, req.query), limit);
  if (rows.length > limit) {
    throw tooLarge(`More than ${limit} calls match; narrow the filter (usage over a part of them would be wrong)`);
  }
  const usage = await rollUp(rows, await costSource(db, catalogue, req.project_id, req.include_costs, rows));
  const call_usage: T.CallUsageMap = {};
  for (const row of rows) define(call_usage, row.id, usageObject(usage.get(row.id)));
  const unfinished = rows.filter((r) => r.ended_at === null).map((r) => r.id);
  return { call_usage, unfinished_call_ids: unfinished.sort(compareText) };
}

function checkLimit(limit: number | null | undefined): number {
  const n = limit ?? MAX_USAGE_LIMIT;
  if (!Number.isInteger(n) || n < 1 || n > MAX_USAGE_LIMIT) {
    throw invalidField(['body', 'limit'], `limit must be a whole number from 1 to ${MAX_USAGE_LIMIT}`);
  }
  return n;
}

const traceTooLarge = (limit: number) =>
  tooLarge(`Cannot compute complete usage: a single trace exceeds the ${limit}-call aggregation limit. Increase limit and retry.`);

/** The traces of the roots that are visible calls of the project. */
async function rootTraces(db: Db, projectId: string, ids: string[]): Promise<string[]> {
  const traces = new Set<string>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await db.kysely
      .selectFrom('calls')
      .select('calls.trace_id')
      .where(filterOf(db, projectId, { call_ids: ids.slice(i, i + CHUNK) }))
      .execute();
    for (const r of rows) if (r.trace_id !== null) traces.add(r.trace_id);
  }
  return [...traces].sort(compareText);
}

/** Each trace's visible calls, counted by the database. */
async function traceSizes(db: Db, projectId: string, traceIds: string[]): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  for (let i = 0; i < traceIds.length; i += CHUNK) {
    const rows = await db.kysely
      .selectFrom('calls')
      .select((eb) => ['calls.trace_id', eb.fn.countAll().as('n')])
      .where(filterOf(db, projectId, { trace_ids: traceIds.slice(i, i + CHUNK) }))
      .groupBy('calls.trace_id')
      .execute();
    for (const r of rows) if (r.trace_id !== null) sizes.set(r.trace_id, Number(r.n));
  }
  return sizes;
}

/** Traces in batches of at most `limit` calls (in trace id order); one larger trace is refused. */
function packTraces(sizes: Map<string, number>, limit: number): string[][] {
  const batches: string[][] = [];
  let batch: string[] = [];
  let calls = 0;
  for (const [trace, n] of [...sizes].sort(([a], [b]) => compareText(a, b))) {
    if (n > limit) throw traceTooLarge(limit);
    if (calls + n > limit) {
      batches.push(batch);
      batch = [];
      calls = 0;
    }
    batch.push(trace);
    calls += n;
  }
  if (batch.length > 0) batches.push(batch);
  return batches.reverse();
}

/**
 * The statement of readCalls. No ORDER BY: ordered by start, SQLite would rather walk
 * calls_started_idx over the whole project than sort the traces' calls (found through
 * calls_trace_idx); which limit + 1 rows come back does not matter, since more than `limit` is
 * refused or split whole.
 */
export function usageCallsQuery(db: Db, filter: Condition, condition: Condition | undefined, limit: number) {
  return db.kysely
    .selectFrom('calls')
    .select(['calls.id', 'calls.parent_id', 'calls.started_at', 'calls.ended_at', 'calls.summary'])
    .where(filter)
    .$if(condition !== undefined, (q) => q.where(condition!))
    .limit(limit + 1);
}

/** Up to limit + 1 visible calls (one more tells that there are more), by start time then id. */
async function readCalls(db: Db, filter: Condition, condition: Condition | undefined, limit: number): Promise<UsageRow[]> {
  // Up to 10,001 summaries: off the main thread on a SQLite file, parsed with turns.
  const rows = await db.readLong<UsageRow>(usageCallsQuery(db, filter, condition, limit).compile());
  rows.sort((a, b) => (a.started_at !== b.started_at ? compareText(a.started_at, b.started_at) : compareText(a.id, b.id)));
  return mapInTurns(rows, (row) => ({ ...row, summary: readJson(db, row.summary) }));
}

/** With include_costs: the catalogue and the project's prices of the models these calls used. */
async function costSource(db: Db, catalogue: Catalogue, projectId: string, includeCosts: boolean | null | undefined, rows: UsageRow[]) {
  if (includeCosts !== true) return undefined;
  const models = new Set<string>();
  for (const row of rows) for (const model of usageModels(row.summary)) models.add(model);
  return { catalogue, prices: await projectPrices(db, projectId, models) };
}

// Ids in code-unit order, the same whatever the database's collation.
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
