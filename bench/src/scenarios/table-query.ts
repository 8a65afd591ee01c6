// Scenario 2: POST /table/query on the 1,000,000-row table and the 10,000-row one, at the first,
// middle and last page (limit 100): in table order, and sorted by a nested numeric field. Each
// figure is the mean latency of one client in a loop; each baseline is the statement the store
// ran for that request, captured and run on a plain connection to the same database.
//
// Order matters and is part of the scenario: the sorted first page is measured before any order
// is cached (the direct top-k), the middle page then builds the table's order once (timed
// alone), and the later pages and a warm first page read it.
import { openDatabase, type Db } from '@weft/store';
import type * as T from '@weft/types';
import { captureQueries, openDirect, type DirectConnection } from '../direct-sql.ts';
import { SORT_FIELD } from '../fixtures/eval-rows.ts';
import { measureHttp, measureLoop, timeOnce } from '../load.ts';
import { say } from '../progress.ts';
import { PROJECTS } from '../seed/spec.ts';
import type { ServerProcess } from '../servers/spawn.ts';
import { startWeft } from '../servers/weft.ts';
import type { RunContext } from './context.ts';
import { tableQueryReport, type Pair, type TableFigures } from './table-query-report.ts';

export async function tableQueryScenario(ctx: RunContext) {
  const db = await openDatabase(ctx.databaseUrl);
  await clearSortOrders(db);
  const direct = await openDirect(ctx.databaseUrl);
  let weft: ServerProcess | undefined;
  try {
    weft = await startWeft(ctx.databaseUrl, ctx.runDir, ctx.creds);
    const idleRssMb = weft.rssMb();
    const peak = weft.trackPeakRss();
    const run = new Runner(ctx, db, direct, `${weft.url}/table/query`);
    const figures: Record<'big' | 'small', TableFigures> = {
      big: await measureTable(run, ctx.digests.big, ctx.spec.bigRows),
      small: await measureTable(run, ctx.digests.small, ctx.spec.smallRows),
    };
    const peakRssMb = peak();
    return { result: tableQueryReport(ctx, figures), peakRssMb, idleRssMb };
  } finally {
    await weft?.stop();
    await direct.close();
    await db.close();
  }
}

/** Orders cached by an earlier run on the same PostgreSQL database would skip the build. */
async function clearSortOrders(db: Db): Promise<void> {
  await db.kysely
    .withTables<{ table_sort_orders: { project_id: string } }>()
    .deleteFrom('table_sort_orders')
    .where('project_id', '=', PROJECTS.tables)
    .execute();
}

async function measureTable(run: Runner, digest: string, rows: number): Promise<TableFigures> {
  const offsets = [0, rows / 2, rows - 100];
  const label = `${rows.toLocaleString('en-US')} rows`;
  const sort: T.TableSortItem[] = [{ field: SORT_FIELD, direction: 'asc' }];
  const req = (offset: number, sorted: boolean): T.TableQueryReq => ({
    project_id: PROJECTS.tables,
    digest,
    limit: 100,
    offset,
    ...(sorted ? { sort_by: sort } : {}),
  });
  const defaultOrder: Pair[] = [];
  for (const offset of offsets) {
    say(`  table/query ${label}: table order at offset ${offset}`);
    defaultOrder.push(await run.pair(req(offset, false), 'fast'));
  }
  say(`  table/query ${label}: sorted first page, nothing cached`);
  // A million-row sort takes seconds: a couple of requests, not a duration.
  const sortedFirstCold = await run.pair(req(0, true), rows > 100_000 ? 'slow' : 'fast');
  say(`  table/query ${label}: sorted page at offset ${offsets[1]}, building the order`);
  const buildMs = await run.once(req(offsets[1] as number, true));
  const sortedLater: Pair[] = [];
  for (const offset of offsets.slice(1)) {
    say(`  table/query ${label}: sorted at offset ${offset}`);
    sortedLater.push(await run.pair(req(offset, true), 'fast'));
  }
  say(`  table/query ${label}: sorted first page, order cached`);
  const sortedFirstWarm = await run.pair(req(0, true), 'fast');
  return { rows, offsets, defaultOrder, sortedFirstCold, buildMs, sortedLater, sortedFirstWarm };
}

class Runner {
  constructor(
    private readonly ctx: RunContext,
    private readonly db: Db,
    private readonly direct: DirectConnection,
    private readonly url: string,
  ) {}

  private target(req: T.TableQueryReq) {
    return { url: this.url, headers: this.ctx.creds.headers, body: JSON.stringify(req) };
  }

  /** One request, timed (the build of a sort order). */
  async once(req: T.TableQueryReq): Promise<number> {
    const t = this.target(req);
    return timeOnce(async () => {
      const res = await fetch(t.url, { method: 'POST', headers: t.headers, body: t.body });
      if (res.status !== 200) throw new Error(`table/query answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    });
  }

  /**
   * Weft over HTTP, then the statement the store ran for it, on the same database. A request
   * that may take seconds is sent a fixed number of times instead of for a duration: one that
   * outlasts the window would leave nothing measured. 'slow' says so up front; otherwise one
   * timed request decides (a 100,000-row sort takes about a second on a slow machine).
   */
  async pair(req: T.TableQueryReq, speed: 'fast' | 'slow'): Promise<Pair> {
    const window = (this.ctx.seconds / 2) * 1000;
    const slow = speed === 'slow' || (await this.once(req)) > window / 5;
    const count = 2;
    const weft = await measureHttp(
      this.target(req),
      slow ? { connections: 1, amount: count } : { connections: 1, duration: this.ctx.seconds / 2, warmup: 1 },
    );
    // The last statement is the one that read the rows (a cache probe may come first).
    const queries = await captureQueries(this.db, (store) => store.tableQuery(req, { user: 'bench' }));
    const query = queries[queries.length - 1];
    if (!query) throw new Error('the store ran no statement');
    const sql = await measureLoop(
      () => this.direct.run(query),
      slow ? { minMs: 0, minCount: count, maxCount: count, warmup: false } : { minMs: 2000, minCount: 20, maxCount: 100_000 },
    );
    return { weft, sql };
  }
}
