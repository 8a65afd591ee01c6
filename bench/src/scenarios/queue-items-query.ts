// Scenario 13: POST /annotation_queues/{id}/items/query, limit 50, in a queue of 100,000 items and
// in one of 1,000: the first page and a deep page (offset 950, the small queue's last page; the
// same offset in both, so the queue's size is the only difference), each in the default order and
// with include_position. Target: the large queue within 2× the small one. The queues are filled by
// inserting the rows items/add writes (one statement per 1,000 items), not through HTTP, and every
// tenth item has an annotator's progress record, so the state subqueries find rows. One client in
// a loop, alternating the two queues over two rounds.
import { openDatabase, type Db } from '@weft/store';
import { checkOnce, measureHttp, type Figure } from '../load.ts';
import { say } from '../progress.ts';
import { fmt, type Line, type ScenarioResult } from '../report/results.ts';
import { ENTITY, startWeft } from '../servers/weft.ts';
import type { RunContext } from './context.ts';

const PROJECT = `${ENTITY}/queue-items`;
const SIZES = { large: 100_000, small: 1_000 } as const;
type Queue = keyof typeof SIZES;
const LIMIT = 50;
const DEEP_OFFSET = 950;
const VARIANTS = [
  { name: 'first page', offset: 0, include_position: false },
  { name: `offset ${DEEP_OFFSET}`, offset: DEEP_OFFSET, include_position: false },
  { name: 'first page, include_position', offset: 0, include_position: true },
  { name: `offset ${DEEP_OFFSET}, include_position`, offset: DEEP_OFFSET, include_position: true },
] as const;

export async function queueItemsQueryScenario(ctx: RunContext): Promise<ScenarioResult> {
  const weft = await startWeft(ctx.databaseUrl, ctx.runDir, ctx.creds);
  const db = await openDatabase(ctx.databaseUrl);
  try {
    const post = async (path: string, body: unknown) =>
      JSON.parse(await checkOnce({ url: `${weft.url}${path}`, headers: ctx.creds.headers, body: JSON.stringify(body) })) as unknown;
    await clearProject(db);
    const queues = {} as Record<Queue, string>;
    const seedMs: Record<string, number> = {};
    for (const queue of ['small', 'large'] as const) {
      const { id } = (await post('/annotation_queues', { project_id: PROJECT, name: `${queue} queue`, scorer_refs: [] })) as { id: string };
      queues[queue] = id;
      const started = performance.now();
      await fillQueue(db, id, SIZES[queue]);
      seedMs[queue] = performance.now() - started;
      say(`  queue of ${SIZES[queue].toLocaleString('en-US')} items filled in ${fmt.ms(seedMs[queue])}`);
    }
    const target = (queue: Queue, v: (typeof VARIANTS)[number]) => ({
      url: `${weft.url}/annotation_queues/${queues[queue]}/items/query`,
      headers: ctx.creds.headers,
      body: JSON.stringify({ project_id: PROJECT, limit: LIMIT, offset: v.offset, include_position: v.include_position }),
    });
    for (const queue of ['large', 'small'] as const)
      for (const v of VARIANTS) {
        const { items } = JSON.parse(await checkOnce(target(queue, v))) as { items: { position_in_queue?: number }[] };
        if (items.length !== LIMIT) throw new Error(`items/query answered ${items.length} items, expected ${LIMIT}`);
        if (v.include_position && items[0]?.position_in_queue !== v.offset + 1)
          throw new Error(`items/query numbered the page's first item ${items[0]?.position_in_queue}, expected ${v.offset + 1}`);
      }

    const figures = Object.fromEntries(VARIANTS.map((v) => [v.name, { large: [] as Figure[], small: [] as Figure[] }]));
    for (let round = 0; round < 2; round++)
      for (const v of VARIANTS)
        for (const queue of ['large', 'small'] as const) {
          say(`  items/query round ${round + 1}: ${v.name}, ${queue} queue`);
          figures[v.name]![queue].push(await measureHttp(target(queue, v), { connections: 1, duration: ctx.seconds / 4, warmup: 1 }));
        }
    const mean = (fs: Figure[]) => fs.reduce((s, f) => s + f.meanMs, 0) / fs.length;
    const lines: Line[] = VARIANTS.map((v) => {
      const { large, small } = figures[v.name]!;
      return {
        measure: `${v.name}: 100,000 items vs 1,000`,
        value: fmt.ms(mean(large)),
        baseline: `1,000 items: ${fmt.ms(mean(small))}`,
        ratio: mean(large) / mean(small),
        target: { op: '<=', value: 2 },
      };
    });
    return {
      id: 'queue-items-query',
      title: `13. POST /annotation_queues/{id}/items/query, limit ${LIMIT}`,
      lines,
      notes: [
        `Mean latency of one client in a loop, 2 alternating rounds of ${ctx.seconds / 4} s per queue and page.`,
        `The same offset in both queues: an offset page costs its offset in any queue (the items before it are read and skipped).`,
        `Filling the queues (rows inserted directly, 1,000 per statement): ${fmt.ms(seedMs.small!)} and ${fmt.ms(seedMs.large!)}.`,
      ],
      raw: { sizes: SIZES, limit: LIMIT, deepOffset: DEEP_OFFSET, figures },
    };
  } finally {
    await db.close();
    await weft.stop();
  }
}

/** A rerun on the same PostgreSQL database starts from an empty project. */
async function clearProject(db: Db): Promise<void> {
  await db.kysely.deleteFrom('annotator_queue_items_progress').where('project_id', '=', PROJECT).execute();
  await db.kysely.deleteFrom('annotation_queue_items').where('project_id', '=', PROJECT).execute();
  await db.kysely.deleteFrom('annotation_queues').where('project_id', '=', PROJECT).execute();
}

async function fillQueue(db: Db, queueId: string, size: number): Promise<void> {
  const t0 = Date.UTC(2026, 0, 1);
  const iso = (ms: number) => new Date(ms).toISOString();
  for (let from = 0; from < size; from += 1000) {
    const n = Math.min(1000, size - from);
    const items = Array.from({ length: n }, (_, k) => {
      const i = from + k;
      return {
        project_id: PROJECT,
        id: `${queueId}-item-${String(i).padStart(6, '0')}`,
        queue_id: queueId,
        call_id: `${queueId}-call-${i}`,
        call_started_at: iso(t0 + i * 1000),
        call_ended_at: iso(t0 + i * 1000 + 500),
        call_op_name: `weave:///${PROJECT}/op/predict:v${i % 7}`,
        call_trace_id: `${queueId}-trace-${i}`,
        display_fields: '["inputs.question","output"]',
        added_by: 'bench',
        created_at: iso(t0 + i * 10),
        created_by: 'bench',
        updated_at: iso(t0 + i * 10),
        deleted_at: null,
      };
    });
    // Plain values, as the calls seed inserts them: SQLite stores the JSON text as the store binds
    // it; PostgreSQL casts the untyped text parameter to the jsonb column.
    await db.kysely
      .insertInto('annotation_queue_items')
      .values(items as never)
      .execute();
    const progress = items
      .filter((_, k) => (from + k) % 10 === 0)
      .map((item, k) => ({
        project_id: PROJECT,
        queue_item_id: item.id,
        annotator_id: 'bench',
        queue_id: queueId,
        call_id: item.call_id,
        annotation_state: k % 2 === 0 ? 'completed' : 'in_progress',
        created_at: item.created_at,
        updated_at: item.updated_at,
      }));
    if (progress.length > 0) await db.kysely.insertInto('annotator_queue_items_progress').values(progress).execute();
  }
}
