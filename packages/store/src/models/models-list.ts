// GET /v1/preview/models?project=: a project's models, oldest first (ties by id), cursor-paged
// as ART's client pages checkpoints: `after` = the last id seen, while `has_more`.
import { notFound } from '@weft/core';
import type * as T from '@weft/types';
import type { Db } from '../db/index.ts';
import { toModelSchema } from './to-model-schema.ts';

export async function modelsList(db: Db, req: { project: string; after?: string; limit?: number }): Promise<T.ModelList> {
  const limit = req.limit ?? 20;
  let query = db.kysely.selectFrom('models').selectAll().where('project_id', '=', req.project);
  if (req.after !== undefined) {
    const after = await db.kysely
      .selectFrom('models')
      .select(['created_at', 'id'])
      .where('project_id', '=', req.project)
      .where('id', '=', req.after)
      .executeTakeFirst();
    if (!after) throw notFound(`Model ${req.after} not found in ${req.project}`);
    query = query.where((eb) =>
      eb.or([eb('created_at', '>', after.created_at), eb.and([eb('created_at', '=', after.created_at), eb('id', '>', after.id)])]),
    );
  }
  // One more than the page: whether another page follows.
  const rows = await query
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit + 1)
    .execute();
  const data = rows.slice(0, limit).map(toModelSchema);
  return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: rows.length > limit };
}
