// judgements/stats: per monitor (every version, by name) and scorer, the judgements in each state,
// their cost and the last one done; calls/score's judgements grouped per scorer. Computed by the
// database over the project's rows.
import type * as T from '@weft/types';
import { sql } from 'kysely';
import type { Db } from '../db/index.ts';

export async function judgementsStats(db: Db, req: T.JudgementsStatsReq): Promise<T.JudgementsStatsRes> {
  const group = sql<string>`case when monitor_ref is null then '' else source_key end`;
  const count = (state: string) => sql<number>`sum(case when state = ${state} then 1 else 0 end)`;
  const rows = await db.kysely
    .selectFrom('judgements')
    .select([
      group.as('source'),
      'scorer_ref',
      count('queued').as('queued'),
      count('running').as('running'),
      count('done').as('done'),
      count('failed').as('failed'),
      // "double precision": a type name both databases know (SQLite reads it as REAL).
      sql<number | null>`sum(cast(cost_usd as double precision))`.as('cost'),
      sql<string | null>`max(case when state = 'done' then updated_at end)`.as('last_done_at'),
    ])
    .where('project_id', '=', req.project_id)
    .groupBy([group, 'scorer_ref'])
    .execute();
  const groups = rows.map((r) => ({
    monitor: r.source === '' ? null : r.source.slice('monitor:'.length),
    scorer_ref: r.scorer_ref,
    queued: Number(r.queued),
    running: Number(r.running),
    done: Number(r.done),
    failed: Number(r.failed),
    cost_usd: Number(r.cost ?? 0),
    last_done_at: r.last_done_at,
  }));
  // Monitors by name, then calls/score's; byte order, as the database's "C" collation.
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  groups.sort(
    (a, b) =>
      (a.monitor === null ? 1 : 0) - (b.monitor === null ? 1 : 0) ||
      cmp(a.monitor ?? '', b.monitor ?? '') ||
      cmp(a.scorer_ref, b.scorer_ref),
  );
  return { groups };
}
