// `pnpm bench`: seeds (or reuses a verified seed), runs the scenarios against Weft and their
// baselines on the database of DATABASE_URL (PostgreSQL) or SQLite, and writes BENCHMARKS.md and
// bench/results/latest.json. BENCH_QUICK=1 shrinks everything for a smoke run; BENCH_ONLY=a,b
// runs some scenarios and writes their figures to bench/results/partial.json only.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '@weft/store';
import { sql } from 'kysely';
import { say } from './progress.ts';
import { openRun } from './run-setup.ts';
import { writeBenchmarksMd, type RunInfo } from './report/markdown.ts';
import { passes, type ScenarioResult } from './report/results.ts';
import { callReadScenario } from './scenarios/call-read.ts';
import { callStatsScenario } from './scenarios/call-stats.ts';
import { callsQueryScenario } from './scenarios/calls-query.ts';
import { evalResultsScenario } from './scenarios/eval-results.ts';
import { healthUnderAttackScenario } from './scenarios/health-under-attack.ts';
import { logIngestScenario } from './scenarios/log-ingest.ts';
import { metricHistoryScenario } from './scenarios/metric-history.ts';
import { objsQueryScenario } from './scenarios/objs-query.ts';
import { otelIngestScenario } from './scenarios/otel-ingest.ts';
import { queueItemsQueryScenario } from './scenarios/queue-items-query.ts';
import { webFirstLoadScenario } from './scenarios/web-first-load.ts';
import { routerScenario } from './scenarios/router.ts';
import { rssScenario } from './scenarios/rss.ts';
import { tableCreateScenario } from './scenarios/table-create.ts';
import { tableQueryScenario } from './scenarios/table-query.ts';
import { runMain } from './run-main.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const resultsDir = join(root, 'bench', 'results');

async function main(): Promise<void> {
  const started = performance.now();
  const quick = process.env.BENCH_QUICK === '1';
  const only = process.env.BENCH_ONLY?.split(',').filter(Boolean);
  const { ctx, close } = await openRun({ quick, only });
  const { dialect, databaseUrl } = ctx;
  try {
    const wanted = (id: string) => !only?.length || only.includes(id);
    const scenarios: ScenarioResult[] = [];
    const peaks: Parameters<typeof rssScenario>[0] = {};
    if (wanted('call-read')) scenarios.push(await step('1. call/read', () => callReadScenario(ctx)));
    if (wanted('table-query')) {
      const tq = await step('2. table/query', () => tableQueryScenario(ctx));
      scenarios.push(tq.result);
      peaks.tableQuery = tq.peakRssMb;
      peaks.idle = tq.idleRssMb;
    }
    if (wanted('objs-query')) scenarios.push(await step('3. objs/query', () => objsQueryScenario(ctx)));
    if (wanted('log-ingest')) {
      const log = await step('4. log ingest', () => logIngestScenario(ctx));
      scenarios.push(log.result);
      peaks.logIngest = log.peakRssMb;
    }
    if (wanted('table-create')) scenarios.push(await step('5. table/create', () => tableCreateScenario(ctx)));
    if (peaks.tableQuery !== undefined || peaks.logIngest !== undefined) scenarios.push(rssScenario(peaks));
    if (wanted('health-under-attack')) scenarios.push(await step('7. /health under attack', () => healthUnderAttackScenario(ctx)));
    if (wanted('metric-history')) scenarios.push(await step('8. metric history', () => metricHistoryScenario(ctx)));
    if (wanted('otel-ingest')) scenarios.push(await step('9. OTLP ingest', () => otelIngestScenario(ctx)));
    if (wanted('web-first-load')) scenarios.push(await step('10. Weft Studio first load', () => webFirstLoadScenario(ctx)));
    if (wanted('calls-query')) scenarios.push(await step('11. calls/stream_query', () => callsQueryScenario(ctx)));
    if (wanted('router')) scenarios.push(await step('12. inference router', () => routerScenario(ctx)));
    if (wanted('queue-items-query')) scenarios.push(await step('13. annotation queue items/query', () => queueItemsQueryScenario(ctx)));
    if (wanted('eval-results')) scenarios.push(await step('14. eval_results/query', () => evalResultsScenario(ctx)));
    if (wanted('call-stats')) scenarios.push(await step('15. project dashboard statistics', () => callStatsScenario(ctx)));

    const info: RunInfo = {
      dialect,
      date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
      machine: `${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), ${(totalmem() / 1024 ** 3).toFixed(1)} GiB`,
      node: process.version,
      database: await describeDatabase(databaseUrl),
      durationS: (performance.now() - started) / 1000,
      quick,
    };
    writeResults(info, scenarios, only !== undefined);
    for (const s of scenarios)
      for (const l of s.lines)
        if (l.target)
          say(
            `${passes(l) ? 'met   ' : 'MISSED'} ${s.title.split(' ')[0]} ${l.measure}: ${l.ratio?.toFixed(3) ?? l.absolute?.value.toFixed(0)}`,
          );
  } finally {
    close();
  }
}

async function step<T>(label: string, run: () => Promise<T>): Promise<T> {
  say(label);
  return run();
}

async function describeDatabase(url: string): Promise<string> {
  const db = await openDatabase(url);
  try {
    if (db.dialect === 'sqlite') {
      const { rows } = await sql<{ v: string }>`select sqlite_version() as v`.execute(db.kysely);
      return `SQLite ${rows[0]?.v} (better-sqlite3, WAL, synchronous=FULL)`;
    }
    const { rows } = await sql<{ v: string }>`select current_setting('server_version') as v`.execute(db.kysely);
    return `PostgreSQL ${rows[0]?.v} (127.0.0.1)`;
  } finally {
    await db.close();
  }
}

function writeResults(info: RunInfo, scenarios: ScenarioResult[], partial: boolean): void {
  mkdirSync(resultsDir, { recursive: true });
  const entry = { ...info, scenarios: scenarios.map((s) => ({ ...s, lines: s.lines.map((l) => ({ ...l, pass: passes(l) })) })) };
  const file = join(resultsDir, partial ? 'partial.json' : 'latest.json');
  // One entry per database, so the SQLite and the PostgreSQL runs are both kept.
  const previous = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  writeFileSync(file, `${JSON.stringify({ ...previous, [info.dialect]: entry }, null, 2)}\n`);
  if (!partial) writeBenchmarksMd(join(root, 'BENCHMARKS.md'), info, scenarios);
  say(`wrote ${file}${partial ? '' : ' and BENCHMARKS.md'}`);
}

runMain('bench', main);
