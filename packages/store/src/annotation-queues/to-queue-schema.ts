// A stored annotation_queues row as the wire's AnnotationQueueSchema (deleted_at omitted, not
// null, while the queue is live).
import type * as T from '@weft/types';
import { readJson, type Db, type Row } from '../db/index.ts';

export function toQueueSchema(db: Pick<Db, 'dialect'>, row: Row<'annotation_queues'>): T.AnnotationQueueSchema {
  const queue: T.AnnotationQueueSchema = {
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    description: row.description,
    scorer_refs: (readJson(db, row.scorer_refs) ?? []) as string[],
    created_at: row.created_at,
    created_by: row.created_by,
    updated_at: row.updated_at,
  };
  if (row.deleted_at !== null) queue.deleted_at = row.deleted_at;
  return queue;
}
