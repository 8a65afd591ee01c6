// POST /annotation_queues/stats: per requested queue, in the order asked, its live items and how
// many were completed or skipped by at least one annotator (Weave's completed_items); unknown ids
// give zeros. Weft adds the items only in progress and those skipped but completed by none.
import type * as T from '@weft/types';
import { sql } from 'kysely';
import type { Db } from '../db/index.ts';

type Count = number | string | bigint | null;

export async function annotationQueuesStats(db: Db, req: T.AnnotationQueuesStatsReq): Promise<T.AnnotationQueuesStatsRes> {
  const ids = [...new Set(req.queue_ids)];
  const counts = new Map<string, { total: Count; done: Count; skipped: Count; busy: Count }>();
  if (ids.length > 0) {
    const has = (states: string[]) =>
      sql<boolean>`exists (select 1 from annotator_queue_items_progress p where p.project_id = i.project_id and p.queue_item_id = i.id and p.annotation_state in (${sql.join(states)}))`;
    const rows = await db.kysely
      .selectFrom('annotation_queue_items as i')
      .select((eb) => [
        'i.queue_id',
        eb.fn.countAll<number | string | bigint>().as('total'),
        sql<Count>`sum(case when ${has(['completed', 'skipped'])} then 1 else 0 end)`.as('done'),
        sql<Count>`sum(case when ${has(['skipped'])} and not ${has(['completed'])} then 1 else 0 end)`.as('skipped'),
        sql<Count>`sum(case when ${has(['in_progress'])} and not ${has(['completed', 'skipped'])} then 1 else 0 end)`.as('busy'),
      ])
      .where('i.project_id', '=', req.project_id)
      .where('i.queue_id', 'in', ids)
      .where('i.deleted_at', 'is', null)
      .groupBy('i.queue_id')
      .execute();
    for (const row of rows) counts.set(row.queue_id, row);
  }
  return {
    stats: req.queue_ids.map((queue_id) => {
      const c = counts.get(queue_id);
      return {
        queue_id,
        total_items: Number(c?.total ?? 0),
        completed_items: Number(c?.done ?? 0),
        in_progress_items: Number(c?.busy ?? 0),
        skipped_items: Number(c?.skipped ?? 0),
      };
    }),
  };
}
