// Scenario 11 (issue 11): POST /calls/stream_query with one op name and a started_at range,
// newest first, limit 100, in a project of 1,000,000 calls and in one of 10,000. Targets: the
// large project within 2× the small one, and Weft within 1.5× the statement the store ran, run
// directly on a plain driver connection. One client in a loop, one figure at a time: Weft on
// both projects, the statement on both, then (without a target) the store alone in the bench
// process (the statement plus the rows turned into the answer's JSON lines); two such rounds.
import { loadCatalogue } from '@weft/core';
import { createStore, openDatabase, type Db } from '@weft/store';
import type * as T from '@weft/types';
import type { CompiledQuery } from 'kysely';
import { captureQueries, openDirect, type DirectConnection } from '../direct-sql.ts';
import { checkOnce, measureHttp, measureLoop, type Figure } from '../load.ts';
import { say } from '../progress.ts';
import { fmt, type Line, type ScenarioResult } from '../report/results.ts';
import type { CallProject } from '../seed/calls-spec.ts';
import { startWeft } from '../servers/weft.ts';
import { callsQueryRequest, callsQueryStatsRequest, checkAnswer, QUERY_OP, RANGE } from './calls-query-request.ts';
import type { RunContext } from './context.ts';

type Way = 'weft' | 'sql' | 'store';
const PROJECTS = ['large', 'small'] as const;

export async function callsQueryScenario(ctx: RunContext): Promise<ScenarioResult> {
  const db = await openDatabase(ctx.databaseUrl);
  const direct = await openDirect(ctx.databaseUrl);
  const store = createStore({ db, catalogue: await loadCatalogue(undefined) });
  const weft = await startWeft(ctx.databaseUrl, ctx.runDir, ctx.creds);
  try {
    const target = (project: CallProject, path = 'stream_query', body: unknown = callsQueryRequest(project)) => ({
      url: `${weft.url}/calls/${path}`,
      headers: ctx.creds.headers,
      body: JSON.stringify(body),
    });
    const matching: Record<CallProject, number> = { large: 0, small: 0 };
    const statements = {} as Record<CallProject, CompiledQuery>;
    const plans: Record<string, string> = {};
    for (const project of PROJECTS) {
      checkAnswer(project, await checkOnce(target(project)));
      matching[project] = (
        JSON.parse(await checkOnce(target(project, 'query_stats', callsQueryStatsRequest(project)))) as { count: number }
      ).count;
      if (matching[project] < 200)
        throw new Error(`the range matches only ${matching[project]} calls in ${project}: not a limit-100 query`);
      statements[project] = await theStatement(db, project);
      if ((await direct.run(statements[project])).length !== 100) throw new Error('the captured statement does not answer 100 rows');
      plans[project] = await planOf(ctx, direct, statements[project]);
      say(`  calls/stream_query ${project}: ${matching[project].toLocaleString('en-US')} calls match; plan: ${plans[project]}`);
    }
    const figures: Record<Way, Record<CallProject, Figure[]>> = {
      weft: { large: [], small: [] },
      sql: { large: [], small: [] },
      store: { large: [], small: [] },
    };
    const loop = { minMs: (ctx.seconds / 2) * 1000, minCount: 20, maxCount: 1_000_000 };
    for (let round = 0; round < 2; round++) {
      for (const project of PROJECTS) {
        say(`  calls/stream_query round ${round + 1}: Weft, ${project} project`);
        figures.weft[project].push(await measureHttp(target(project), { connections: 1, duration: ctx.seconds / 2, warmup: 1 }));
      }
      for (const project of PROJECTS) {
        say(`  calls/stream_query round ${round + 1}: same SQL, ${project} project`);
        figures.sql[project].push(await measureLoop(() => direct.run(statements[project]), loop));
      }
      for (const project of PROJECTS) {
        say(`  calls/stream_query round ${round + 1}: the store in process, ${project} project`);
        const req = callsQueryRequest(project) as unknown as T.CallsStreamQueryReq;
        figures.store[project].push(
          await measureLoop(() => answerLines(store.callsStreamQuery(req, { user: 'bench', mayRead: () => true })), loop),
        );
      }
    }
    return report(ctx, figures, matching, plans);
  } finally {
    await weft.stop();
    await direct.close();
    await db.close();
  }
}

/**
 * The statement that read the rows: a limit-100 request is one page, one statement (before it,
 * the query compiler compiles its condition once to refuse a bad query early, and runs nothing).
 */
async function theStatement(db: Db, project: CallProject): Promise<CompiledQuery> {
  const req = callsQueryRequest(project) as unknown as T.CallsStreamQueryReq;
  const queries = await captureQueries(db, (store) => answerLines(store.callsStreamQuery(req, { user: 'bench', mayRead: () => true })));
  const last = queries[queries.length - 1];
  if (!last) throw new Error('the store ran no statement');
  return last;
}

async function answerLines(calls: AsyncIterable<T.CallSchema> | Promise<T.CallSchema[]>): Promise<string> {
  let text = '';
  for await (const call of await calls) text += `${JSON.stringify(call)}\n`;
  return text;
}

/** The database's plan for the statement, on one line: its steps, without their conditions. */
async function planOf(ctx: RunContext, direct: DirectConnection, query: CompiledQuery): Promise<string> {
  const explain = ctx.dialect === 'sqlite' ? 'explain query plan ' : 'explain (costs off) ';
  const rows = (await direct.run({ ...query, sql: `${explain}${query.sql}` })) as Array<Record<string, unknown>>;
  const steps = rows.map((r) => String(r.detail ?? r['QUERY PLAN']).trim());
  if (ctx.dialect === 'sqlite') return steps.join(' · ');
  // PostgreSQL: the plan nodes, and what a sort finds presorted; not each node's conditions.
  const nodes: string[] = [];
  for (const line of steps) {
    if (line.startsWith('Presorted Key:')) nodes.push(`${nodes.pop() ?? ''} (${line})`);
    else if (!/^(Sort Key|Index Cond|Filter|Recheck Cond|Full-sort)/.test(line)) nodes.push(line.replace(/^->\s*/, ''));
  }
  return nodes.join(' → ');
}

function report(
  ctx: RunContext,
  figures: Record<Way, Record<CallProject, Figure[]>>,
  matching: Record<CallProject, number>,
  plans: Record<string, string>,
): ScenarioResult {
  const mean = (way: Way, p: CallProject) => figures[way][p].reduce((s, f) => s + f.meanMs, 0) / figures[way][p].length;
  const n = (k: number) => k.toLocaleString('en-US');
  const [L, S] = [n(ctx.spec.calls.large), n(ctx.spec.calls.small)];
  const line = (measure: string, a: number, baseline: string, b: number, target?: number): Line => ({
    measure,
    value: fmt.ms(a),
    baseline: `${baseline}: ${fmt.ms(b)}`,
    ratio: a / b,
    ...(target !== undefined ? { target: { op: '<=' as const, value: target } } : {}),
  });
  const driver = ctx.dialect === 'sqlite' ? 'better-sqlite3' : 'pg';
  return {
    id: 'calls-query',
    title: '11. POST /calls/stream_query, one op + started_at range, newest first, limit 100',
    lines: [
      line(`${L} vs ${S} calls`, mean('weft', 'large'), `${S}`, mean('weft', 'small'), 2),
      line(`Weft vs same SQL (${L} calls)`, mean('weft', 'large'), 'SQL', mean('sql', 'large'), 1.5),
      line(`Weft vs same SQL (${S} calls)`, mean('weft', 'small'), 'SQL', mean('sql', 'small')),
      line(`same SQL: ${L} vs ${S} calls`, mean('sql', 'large'), `${S}`, mean('sql', 'small')),
      line(`store in process vs same SQL (${L} calls)`, mean('store', 'large'), 'SQL', mean('sql', 'large')),
    ],
    notes: [
      `Op \`${QUERY_OP}\` by its ref in filter.op_names, $expr started_at ≥ day 10 and not ≥ day 25 of 30; ${n(matching.large)} and ${n(matching.small)} calls match. Mean latency of one client in a loop, 2 alternating rounds of ${ctx.seconds / 2} s per figure. "Same SQL": the statement the store ran, on a plain ${driver} connection in the bench process; "store in process": store.callsStreamQuery there, answer lines included.`,
      `Plan (${L} calls): ${plans.large}`,
    ],
    raw: { calls: ctx.spec.calls, range: RANGE, matching, plans, figures },
  };
}
