// POST /annotation_queues: a new queue, created by the authenticated user.
import { uuidv7 } from '@weft/core';
import type * as T from '@weft/types';
import { jsonParam, nowIso, type Db } from '../db/index.ts';

export async function annotationQueueCreate(db: Db, req: T.AnnotationQueueCreateReq, user: string): Promise<T.AnnotationQueueCreateRes> {
  const id = uuidv7();
  const now = nowIso();
  await db.kysely
    .insertInto('annotation_queues')
    .values({
      project_id: req.project_id,
      id,
      name: req.name,
      description: req.description ?? '',
      // Stored verbatim: Weave never validates scorer refs either.
      scorer_refs: jsonParam(db, req.scorer_refs ?? []),
      created_at: now,
      created_by: user,
      updated_at: now,
      deleted_at: null,
    })
    .execute();
  return { id };
}
