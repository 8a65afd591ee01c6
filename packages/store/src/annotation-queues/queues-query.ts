// POST /annotation_queues/query: the live queues of a project, filtered by a case-insensitive
// name substring, sorted and paged (Weave's annotation_queues_query_builder).
import { mapInTurns } from '@weft/core';
import type * as T from '@weft/types';
import { textContains, type Db } from '../db/index.ts';
import { applyPaging, checkPaging, readPaged } from '../db/paging.ts';
import { toQueueSchema } from './to-queue-schema.ts';

type SortColumn = T.AnnotationQueueSortItem['field'];

export async function annotationQueuesQuery(db: Db, req: T.AnnotationQueuesQueryReq): Promise<T.AnnotationQueueSchema[]> {
  // The spec admits only the sortable fields (Weave ignores others; Weft refuses them with 422).
  const order: [SortColumn, 'asc' | 'desc'][] = (req.sort_by ?? []).map((item) => [item.field, item.direction === 'desc' ? 'desc' : 'asc']);
  if (order.length === 0) order.push(['created_at', 'desc']);
  // Ties are broken by id so pages never overlap.
  if (!order.some(([column]) => column === 'id')) order.push(['id', 'asc']);

  let query = db.kysely
    .selectFrom('annotation_queues')
    .selectAll()
    .where('project_id', '=', req.project_id)
    .where('deleted_at', 'is', null);
  const name = req.name;
  // strpos/instr, not LIKE: '%' and '_' in the name are plain characters.
  if (name !== null && name !== undefined) query = query.where((eb) => textContains(db, eb.ref('name'), name, { caseInsensitive: true }));
  for (const [column, direction] of order) query = query.orderBy(column, direction);
  const paging = checkPaging(req.limit, req.offset);
  const rows = await readPaged(db, applyPaging(query, paging), paging);
  return mapInTurns(rows, (row) => toQueueSchema(db, row));
}
