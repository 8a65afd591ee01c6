// Scenario 15 (issue 30): what a project dashboard asks, in scenario 11's project of 1,000,000
// calls and its one of 10,000, side by side. Target: the large project within 2× the small one.
//
// Time-bucketed statistics read every call of their window, so "a project 100× busier" costs 100×
// over the same time window by necessity; what the target can hold is that the project's size
// itself costs nothing: calls/stats over a window holding the same calls in both (the small
// project's 30 days, the large one's 1/100 of them: its default granularity), and, without a
// target, over the same 30 days (the cost per call compared in the notes). feedback/stats the
// same, over feedback written in proportion (one per ten calls). calls/usage rolls up the traces
// of the first page of roots (100, newest first); threads/stream_query's first page reads the
// project's turns, the same 300 threads added to both (the seed has none).
import { CALL_PROJECTS, SPAN_MS, SPAN_START_MS, type CallProject } from '../seed/calls-spec.ts';
import { openDatabase } from '@weft/store';
import type * as T from '@weft/types';
import { sql } from 'kysely';
import { checkOnce, measureHttp, type Figure, type Target } from '../load.ts';
import { say } from '../progress.ts';
import { fmt, type Line, type ScenarioResult } from '../report/results.ts';
import { startWeft } from '../servers/weft.ts';
import { checkCallStats, checkCallsUsage, checkFeedbackStats, checkThreads } from './call-stats-check.ts';
import {
  addFeedback,
  addThreads,
  CALLS_PER_FEEDBACK,
  FEEDBACK_TYPE,
  feedbackScores,
  removeAdditions,
  THREADS,
  threadTurns,
  type FeedbackScore,
  type Turn,
} from './call-stats-fill.ts';
import type { RunContext } from './context.ts';

const PROJECTS = ['large', 'small'] as const;
const ROOTS = 100;
const THREADS_PAGE = 50;
type Request = 'stats' | 'stats30' | 'usage' | 'threads' | 'feedback';
const TITLES: Record<Request, string> = {
  stats: 'calls/stats, window of equal calls',
  stats30: 'calls/stats, the same 30 days',
  usage: `calls/usage, ${ROOTS} newest roots`,
  threads: `threads/stream_query, first page of ${THREADS_PAGE}`,
  feedback: 'feedback/stats, window of equal calls',
};

const iso = (ms: number) => new Date(ms).toISOString();

export async function callStatsScenario(ctx: RunContext): Promise<ScenarioResult> {
  const db = await openDatabase(ctx.databaseUrl);
  const weft = await startWeft(ctx.databaseUrl, ctx.runDir, ctx.creds);
  try {
    // The equal-calls windows: the small project's 30 days, and as many calls of the large one from day 15.
    const share = ctx.spec.calls.small / ctx.spec.calls.large;
    const windows: Record<CallProject, { start: string; end: string }> = {
      large: { start: iso(SPAN_START_MS + SPAN_MS / 2), end: iso(SPAN_START_MS + SPAN_MS / 2 + SPAN_MS * share) },
      small: { start: iso(SPAN_START_MS), end: iso(SPAN_START_MS + SPAN_MS) },
    };
    const full = { start: iso(SPAN_START_MS), end: iso(SPAN_START_MS + SPAN_MS) };
    const turns = {} as Record<CallProject, Turn[]>;
    const scores = {} as Record<CallProject, FeedbackScore[]>;
    for (const project of PROJECTS) {
      await removeAdditions(db, project);
      const w = windows[project];
      turns[project] = threadTurns(Date.parse(w.start), Date.parse(w.end) - Date.parse(w.start));
      scores[project] = feedbackScores(ctx.spec.calls[project]);
      await addThreads(db, project, turns[project]);
      await addFeedback(db, project, scores[project]);
    }
    // As autovacuum would after such a write: the planner's statistics include the new rows.
    if (ctx.dialect === 'postgres') await sql`analyze calls, feedback`.execute(db.kysely);
    try {
      const target = (path: string, body: unknown): Target => ({
        url: `${weft.url}${path}`,
        headers: ctx.creds.headers,
        body: JSON.stringify(body),
      });
      const targets = {} as Record<Request, Record<CallProject, Target>>;
      for (const r of Object.keys(TITLES) as Request[]) targets[r] = {} as Record<CallProject, Target>;
      const checked: Record<string, number> = {};
      for (const project of PROJECTS) {
        const projectId = CALL_PROJECTS[project];
        const w = windows[project];
        targets.stats[project] = target('/calls/stats', statsBody(projectId, w));
        const stats = JSON.parse(await checkOnce(targets.stats[project])) as T.CallStatsRes;
        checked[`stats ${project}`] = await checkCallStats(db, projectId, w.start, w.end, stats);
        checked[`granularity ${project}`] = stats.granularity;
        targets.stats30[project] = target('/calls/stats', statsBody(projectId, full));
        if (project === 'small') checked['stats30 small'] = checked['stats small']!;
        else {
          say(`  calls/stats over 30 days of ${project}: checking once`);
          const res = JSON.parse(await checkOnce(targets.stats30[project])) as T.CallStatsRes;
          checked[`stats30 ${project}`] = await checkCallStats(db, projectId, full.start, full.end, res);
        }
        const roots = await newestRoots(ctx, weft.url, projectId);
        targets.usage[project] = target('/calls/usage', { project_id: projectId, call_ids: roots, include_costs: true });
        await checkCallsUsage(db, projectId, roots, JSON.parse(await checkOnce(targets.usage[project])) as T.CallsUsageRes);
        targets.threads[project] = target('/threads/stream_query', { project_id: projectId, limit: THREADS_PAGE });
        checkThreads(projectId, turns[project], THREADS_PAGE, jsonLines(await checkOnce(targets.threads[project])));
        targets.feedback[project] = target('/feedback/stats', {
          project_id: projectId,
          ...w,
          feedback_type: FEEDBACK_TYPE,
          metrics: [{ json_path: 'output.score', value_type: 'numeric', aggregations: ['avg', 'min', 'max', 'count'] }],
        });
        const fb = JSON.parse(await checkOnce(targets.feedback[project])) as T.FeedbackStatsRes;
        checked[`feedback ${project}`] = checkFeedbackStats(projectId, scores[project], w.start, w.end, fb);
        say(
          `  ${project}: ${checked[`stats ${project}`]} calls in the window (granularity ${stats.granularity} s), ${checked[`feedback ${project}`]} feedback; answers checked`,
        );
      }

      const figures = Object.fromEntries(
        (Object.keys(TITLES) as Request[]).map((r) => [r, { large: [] as Figure[], small: [] as Figure[] }]),
      ) as Record<Request, Record<CallProject, Figure[]>>;
      for (let round = 0; round < 2; round++)
        for (const r of Object.keys(TITLES) as Request[])
          for (const project of PROJECTS) {
            say(`  round ${round + 1}: ${TITLES[r]}, ${project} project`);
            // 30 days of the large project take seconds a request: a count of requests, not a duration.
            const opts =
              r === 'stats30' && project === 'large'
                ? { connections: 1, amount: 3 }
                : { connections: 1, duration: ctx.seconds / 4, warmup: 1 };
            figures[r][project].push(await measureHttp(targets[r][project], opts));
          }
      return report(ctx, figures, checked);
    } finally {
      for (const project of PROJECTS) await removeAdditions(db, project);
    }
  } finally {
    await weft.stop();
    await db.close();
  }
}

/** What the Studio overview asks (apps/web/src/overview-stats.ts), at the default granularity. */
function statsBody(projectId: string, w: { start: string; end: string }): T.CallStatsReq {
  return {
    project_id: projectId,
    start: w.start,
    end: w.end,
    call_metrics: [
      { metric: 'call_count', aggregations: ['sum'] },
      { metric: 'error_count', aggregations: ['sum'] },
      { metric: 'latency_ms', percentiles: [50, 95, 99] },
    ],
    usage_metrics: [
      { metric: 'input_tokens', aggregations: ['sum'] },
      { metric: 'output_tokens', aggregations: ['sum'] },
      { metric: 'total_cost', aggregations: ['sum'] },
    ],
  };
}

/** The traces list's first page: the newest roots, as calls/usage is asked for their usage. */
async function newestRoots(ctx: RunContext, url: string, projectId: string): Promise<string[]> {
  const body = await checkOnce({
    url: `${url}/calls/stream_query`,
    headers: ctx.creds.headers,
    body: JSON.stringify({
      project_id: projectId,
      filter: { trace_roots_only: true },
      sort_by: [{ field: 'started_at', direction: 'desc' }],
      limit: ROOTS,
      columns: ['id'],
    }),
  });
  const ids = jsonLines<{ id: string }>(body).map((c) => c.id);
  if (ids.length !== ROOTS) throw new Error(`calls/stream_query answered ${ids.length} roots, expected ${ROOTS}`);
  return ids;
}

function jsonLines<R = T.ThreadSchema>(body: string): R[] {
  return body
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as R);
}

function report(ctx: RunContext, figures: Record<Request, Record<CallProject, Figure[]>>, checked: Record<string, number>): ScenarioResult {
  const mean = (fs: Figure[]) => fs.reduce((s, f) => s + f.meanMs, 0) / fs.length;
  const n = (k: number) => k.toLocaleString('en-US');
  const [L, S] = [n(ctx.spec.calls.large), n(ctx.spec.calls.small)];
  const lines: Line[] = (Object.keys(TITLES) as Request[]).map((r) => {
    const [large, small] = [mean(figures[r].large), mean(figures[r].small)];
    return {
      measure: `${TITLES[r]}: ${L} calls vs ${S}`,
      value: fmt.ms(large),
      baseline: `${S}: ${fmt.ms(small)}`,
      ratio: large / small,
      ...(r === 'stats30' ? {} : { target: { op: '<=' as const, value: 2 } }),
    };
  });
  const perCall = mean(figures.stats30.large) / checked['stats30 large']! / (mean(figures.stats30.small) / checked['stats30 small']!);
  return {
    id: 'call-stats',
    title: '15. Project dashboard: calls/stats, calls/usage, threads/stream_query, feedback/stats',
    lines,
    notes: [
      `Windows of equal calls: ${n(checked['stats large']!)} calls of the large project (1/${Math.round(ctx.spec.calls.large / ctx.spec.calls.small)} of its 30 days from day 15, granularity ${checked['granularity large']} s) and ${n(checked['stats small']!)} of the small one (30 days, ${checked['granularity small']} s); the same 30 days: ${n(checked['stats30 large']!)} calls vs ${n(checked['stats30 small']!)}, ${perCall.toFixed(2)}× per call. Each with the Studio overview's metrics (calls, errors, latency p50/p95/p99, input and output tokens and cost by model).`,
      `Added for the scenario and removed after: ${THREADS} threads (1–8 turns) in each project's window of equal calls; one feedback score per ${CALLS_PER_FEEDBACK} calls over the 30 days (${n(checked['feedback large']!)} and ${n(checked['feedback small']!)} in the windows).`,
      `Every answer checked once against values computed from the rows read directly or from what was written. Mean latency of one client in a loop, 2 alternating rounds of ${ctx.seconds / 4} s per figure (3 requests for 30 days of the large project).`,
    ],
    raw: { checked, figures },
  };
}
