// POST /annotation_queues/{id}/items/query: a queue's live items, filtered by equality, sorted
// (call_started_at, call_op_name, created_at, updated_at; default created_at ascending) with id
// ascending always breaking ties, paged without a default limit (Weave's items query). With
// include_position each item carries its 1-based place in that order, counted after every filter
// but annotation_states (as Weave numbers them): with a state filter a window over the filtered
// queue is read; without one the place is the offset plus the place in the page.
import { notFound } from '@weft/core';
import type * as T from '@weft/types';
import { sql, type ExpressionBuilder } from 'kysely';
import type { Database, Db } from '../db/index.ts';
import { applyPaging, checkPaging, readPaged } from '../db/paging.ts';
import type { QueueKey } from '../store.ts';
import { latestAnnotator, latestState } from './queue-item-state.ts';
import { findLiveQueue } from './queue-read.ts';
import { toItemSchema, type ItemRow } from './to-item-schema.ts';

type Eb = ExpressionBuilder<Database, 'annotation_queue_items'>;
type SortColumn = T.AnnotationQueueItemSortItem['field'];

export async function annotationQueueItemsQuery(
  db: Db,
  req: QueueKey & T.AnnotationQueueItemsQueryReq,
): Promise<T.AnnotationQueueItemsQueryRes> {
  if (!(await findLiveQueue(db.kysely, req))) throw notFound(`Queue ${req.queue_id} not found`);
  const paging = checkPaging(req.limit, req.offset);
  const order: [SortColumn | 'id', 'asc' | 'desc'][] = (req.sort_by ?? []).map((s) => [s.field, s.direction === 'desc' ? 'desc' : 'asc']);
  if (order.length === 0) order.push(['created_at', 'asc']);
  order.push(['id', 'asc']);
  const f = req.filter ?? {};
  const equal = (eb: Eb) =>
    eb.and([
      eb('annotation_queue_items.project_id', '=', req.project_id),
      eb('annotation_queue_items.queue_id', '=', req.queue_id),
      eb('annotation_queue_items.deleted_at', 'is', null),
      ...(['id', 'call_id', 'call_op_name', 'call_trace_id', 'added_by'] as const).flatMap((k) => {
        const v = f[k];
        return v == null ? [] : [eb(`annotation_queue_items.${k}`, '=', v)];
      }),
    ]);
  const states = f.annotation_states;
  const byState = (state: Parameters<typeof sql.ref>[0]) =>
    states?.length ? sql<boolean>`coalesce(${sql.ref(state)}, 'unstarted') in (${sql.join(states)})` : sql<boolean>`1 = 1`;

  const base = db.kysely
    .selectFrom('annotation_queue_items')
    .selectAll('annotation_queue_items')
    .select((eb) => [latestState(eb).as('state'), latestAnnotator(eb).as('annotator')])
    .where(equal);

  let rows: ItemRow[];
  if (req.include_position && states?.length) {
    // Positions count items the state filter drops: numbered over the whole queue, then filtered.
    const window = sql.join(order.map(([c, d]) => sql`${sql.ref(`annotation_queue_items.${c}`)} ${sql.raw(d)}`));
    const numbered = base.select(sql<number>`row_number() over (order by ${window})`.as('position'));
    const query = db.kysely.selectFrom(numbered.as('i')).selectAll().where(byState('i.state')).orderBy('i.position', 'asc');
    rows = await readPaged(db, applyPaging(query, paging), paging);
  } else {
    let query = db.kysely.selectFrom(base.as('i')).selectAll().where(byState('i.state'));
    for (const [c, d] of order) query = query.orderBy(`i.${c}`, d);
    rows = await readPaged(db, applyPaging(query, paging), paging);
    // Without a state filter the order is total (id breaks ties), so an item's position is its
    // place in the page after the offset: no window over the whole queue, whose cost grew with it.
    if (req.include_position) rows = rows.map((row, k) => ({ ...row, position: paging.offset + k + 1 }));
  }
  return { items: rows.map((row) => toItemSchema(db, row)) };
}
