// A stored annotation_queue_items row, with its latest progress record (if any), as the wire's
// AnnotationQueueItemSchema. An unstarted item's annotator is '' (Weave's ClickHouse answer).
import type * as T from '@weft/types';
import { readJson, type Db, type Row } from '../db/index.ts';

export interface ItemRow extends Row<'annotation_queue_items'> {
  state: string | null;
  annotator: string | null;
  position?: number | string | bigint | null;
}

export function toItemSchema(db: Pick<Db, 'dialect'>, row: ItemRow): T.AnnotationQueueItemSchema {
  const item: T.AnnotationQueueItemSchema = {
    id: row.id,
    project_id: row.project_id,
    queue_id: row.queue_id,
    call_id: row.call_id,
    call_started_at: row.call_started_at,
    call_ended_at: row.call_ended_at,
    call_op_name: row.call_op_name,
    call_trace_id: row.call_trace_id,
    display_fields: (readJson(db, row.display_fields) ?? []) as string[],
    added_by: row.added_by,
    annotation_state: (row.state ?? 'unstarted') as T.AnnotationState,
    annotator_user_id: row.state === null ? '' : row.annotator,
    created_at: row.created_at,
    created_by: row.created_by,
    updated_at: row.updated_at,
  };
  if (row.deleted_at !== null) item.deleted_at = row.deleted_at;
  if (row.position != null) item.position_in_queue = Number(row.position);
  return item;
}
