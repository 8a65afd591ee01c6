// Scenario 15's answers checked once against values computed here, from the rows read directly or
// from what the scenario wrote, so that a fast wrong answer cannot pass: calls/stats's buckets
// (calls, errors and input tokens per model, bucket by bucket), calls/usage's per-root totals, the
// threads page, and feedback/stats's counts and mean.
import type { Db } from '@weft/store';
import type * as T from '@weft/types';
import type { FeedbackScore, Turn } from './call-stats-fill.ts';

type Usage = Record<string, Record<string, number>>;

const parse = (v: unknown): unknown => (typeof v === 'string' ? JSON.parse(v) : v);
const usageOf = (summary: unknown): Usage => (parse(summary) as { usage?: Usage } | null)?.usage ?? {};

function fail(what: string, detail: string): never {
  throw new Error(`${what}: ${detail}`);
}

/** The bucket start of an instant, as calls/stats places it (multiples of the granularity since the epoch). */
const bucketOf = (iso: string, granularityS: number) => {
  const g = granularityS * 1000;
  return new Date(Math.floor(Date.parse(iso) / g) * g).toISOString();
};

/**
 * Every bucket's call count, error count and input tokens per model equal those of the project's
 * calls started in [start, end), read directly; returns how many calls that is.
 */
export async function checkCallStats(db: Db, projectId: string, start: string, end: string, res: T.CallStatsRes): Promise<number> {
  const what = `calls/stats on ${projectId}`;
  const rows = await db.kysely
    .selectFrom('calls')
    .select(['started_at', 'exception', 'summary'])
    .where('project_id', '=', projectId)
    .where('started_at', '>=', start)
    .where('started_at', '<', end)
    .where('deleted_at', 'is', null)
    .execute();
  const calls = new Map<string, number>();
  const errors = new Map<string, number>();
  const tokens = new Map<string, number>();
  for (const row of rows) {
    const b = bucketOf(row.started_at as string, res.granularity);
    calls.set(b, (calls.get(b) ?? 0) + 1);
    if (row.exception !== null) errors.set(b, (errors.get(b) ?? 0) + 1);
    for (const [model, u] of Object.entries(usageOf(row.summary))) {
      const key = `${b} ${model}`;
      tokens.set(key, (tokens.get(key) ?? 0) + (u.prompt_tokens ?? 0) + (u.input_tokens ?? 0));
    }
  }
  const answered = new Set(res.call_buckets.map((b) => b.timestamp));
  for (const b of calls.keys()) if (!answered.has(b)) fail(what, `no bucket ${b}, which has ${calls.get(b)} calls`);
  for (const bucket of res.call_buckets) {
    const t = bucket.timestamp;
    if (bucket.sum_call_count !== (calls.get(t) ?? 0) || bucket.count !== (calls.get(t) ?? 0))
      fail(what, `bucket ${t} counts ${bucket.sum_call_count} calls, expected ${calls.get(t) ?? 0}`);
    if (bucket.sum_error_count !== (errors.get(t) ?? 0))
      fail(what, `bucket ${t} counts ${bucket.sum_error_count} errors, expected ${errors.get(t) ?? 0}`);
    if ((calls.get(t) ?? 0) > 1 && typeof bucket.p50_latency_ms !== 'number') fail(what, `bucket ${t} has no p50 latency`);
  }
  let usageRows = 0;
  for (const bucket of res.usage_buckets) {
    const want = tokens.get(`${bucket.timestamp} ${String(bucket.model)}`) ?? 0;
    if (bucket.sum_input_tokens !== want)
      fail(what, `bucket ${bucket.timestamp}, ${String(bucket.model)}: ${bucket.sum_input_tokens} input tokens, expected ${want}`);
    if (want > 0) usageRows++;
  }
  if (usageRows !== tokens.size) fail(what, `${usageRows} usage rows with tokens, expected ${tokens.size}`);
  return rows.length;
}

/** Each root's total tokens per model are the sum over its trace's calls (all its descendants). */
export async function checkCallsUsage(db: Db, projectId: string, roots: string[], res: T.CallsUsageRes): Promise<void> {
  const what = `calls/usage on ${projectId}`;
  const rows = await db.kysely
    .selectFrom('calls')
    .select(['trace_id', 'summary'])
    .where('project_id', '=', projectId)
    .where('trace_id', 'in', roots)
    .execute();
  const want = new Map<string, Map<string, number>>(roots.map((r) => [r, new Map()]));
  for (const row of rows) {
    const perModel = want.get(row.trace_id ?? '') ?? fail(what, `a call of an unknown trace ${row.trace_id}`);
    for (const [model, u] of Object.entries(usageOf(row.summary))) perModel.set(model, (perModel.get(model) ?? 0) + (u.total_tokens ?? 0));
  }
  let withUsage = 0;
  for (const root of roots) {
    const got = res.call_usage[root] ?? fail(what, `no entry for root ${root}`);
    const expected = want.get(root)!;
    if (Object.keys(got).length !== expected.size)
      fail(what, `root ${root} has ${Object.keys(got).length} models, expected ${expected.size}`);
    for (const [model, total] of expected) {
      if (got[model]?.total_tokens !== total) fail(what, `root ${root}, ${model}: ${got[model]?.total_tokens} tokens, expected ${total}`);
    }
    if (expected.size > 0) withUsage++;
  }
  if (withUsage === 0) fail(what, 'no root has usage: nothing was checked');
}

/** The first page is the threads with the latest last turn end, with their turn counts. */
export function checkThreads(projectId: string, turns: readonly Turn[], limit: number, page: T.ThreadSchema[]): void {
  const what = `threads/stream_query on ${projectId}`;
  const threads = new Map<string, { count: number; last: string }>();
  for (const t of turns) {
    const th = threads.get(t.thread_id) ?? { count: 0, last: '' };
    th.count++;
    if (t.ended_at > th.last) th.last = t.ended_at;
    threads.set(t.thread_id, th);
  }
  const expected = [...threads.entries()]
    .sort(([a, x], [b, y]) => (x.last !== y.last ? (x.last < y.last ? 1 : -1) : a < b ? -1 : 1))
    .slice(0, limit);
  if (page.length !== expected.length) fail(what, `${page.length} threads, expected ${expected.length}`);
  page.forEach((thread, i) => {
    const [id, th] = expected[i]!;
    if (thread.thread_id !== id || thread.turn_count !== th.count || Date.parse(thread.last_updated) !== Date.parse(th.last))
      fail(what, `thread ${i} is ${JSON.stringify(thread)}, expected ${id} with ${th.count} turns, last ${th.last}`);
  });
}

/** Bucket counts add up to the scores written in the window; the window's mean is theirs. */
export function checkFeedbackStats(
  projectId: string,
  scores: readonly FeedbackScore[],
  start: string,
  end: string,
  res: T.FeedbackStatsRes,
) {
  const what = `feedback/stats on ${projectId}`;
  const inWindow = scores.filter((s) => s.created_at >= start && s.created_at < end);
  const counted = res.buckets.reduce((s, b) => s + b.count, 0);
  if (counted !== inWindow.length) fail(what, `${counted} feedback counted, expected ${inWindow.length}`);
  const mean = inWindow.reduce((s, f) => s + f.score, 0) / inWindow.length;
  const got = res.window_stats?.output_score?.avg;
  if (typeof got !== 'number' || Math.abs(got - mean) > 1e-9) fail(what, `window mean ${got}, expected ${mean}`);
  return inWindow.length;
}
