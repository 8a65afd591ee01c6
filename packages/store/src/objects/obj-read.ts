// POST /obj/read: one version, named by digest, `latest`, `v<N>` or an alias.
import { notFound, objectDeleted, type WeftError } from '@weft/core';
import type * as T from '@weft/types';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Database, Db } from '../db/index.ts';
import type { RequestContext } from '../store.ts';
import { OBJ_META_COLUMNS, toObjSchema, type ObjMetaRow } from './obj-schema.ts';
import { labelsOf } from './version-labels.ts';
import { isContentDigest, parseVersionRef, versionCondition } from './version-ref.ts';

export async function objRead(db: Db, req: T.ObjReadReq, _ctx: RequestContext): Promise<T.ObjReadRes> {
  const metadataOnly = req.metadata_only === true;
  const ref = parseVersionRef(req.digest);
  const base = db.kysely
    .selectFrom('objects')
    .select(OBJ_META_COLUMNS)
    .$if(!metadataOnly, (q) => q.select('val'))
    .where('project_id', '=', req.project_id)
    .where('object_id', '=', req.object_id);

  // A name that is not a content digest is first an alias of the object (Weave), else a digest.
  const condition =
    ref.kind === 'digest' && !isContentDigest(ref.digest)
      ? (eb: ExpressionBuilder<Database, 'objects'>) => aliasOrDigest(eb, req.project_id, req.object_id, ref.digest)
      : (eb: ExpressionBuilder<Database, 'objects'>) => versionCondition(eb, ref);
  let row: (ObjMetaRow & { val?: unknown }) | undefined = await base.where(condition).executeTakeFirst();
  // `latest` when every version is deleted: the last one created is the one reported deleted,
  // as ClickHouse's is_latest (computed over deleted rows too) would.
  if (!row && ref.kind === 'latest') {
    row = await base.orderBy('created_at', 'desc').orderBy('version_index', 'desc').limit(1).executeTakeFirst();
  }
  if (!row) throw objNotFound(req.object_id, req.digest);
  if (row.deleted_at !== null) {
    throw objectDeleted(`${req.object_id}:v${row.version_index} was deleted at ${row.deleted_at}`, row.deleted_at);
  }
  const labels = req.include_tags_and_aliases === true ? (await labelsOf(db, req.project_id, [row]))[0] : undefined;
  return { obj: toObjSchema(db.dialect, row, { ...(metadataOnly ? {} : { val: row.val }), ...(labels ? { labels } : {}) }) };
}

/** What obj/read answers for a version that is not there (refs/read_batch too, for one it may not read). */
export function objNotFound(objectId: string, digest: string): WeftError {
  return notFound(`Obj ${objectId}:${digest} not found`);
}

/** The version the alias points at, or else the one with that digest. */
function aliasOrDigest(eb: ExpressionBuilder<Database, 'objects'>, projectId: string, objectId: string, name: string): Expression<SqlBool> {
  const aliased = eb
    .selectFrom('object_aliases')
    .select('object_aliases.digest')
    .where('object_aliases.project_id', '=', projectId)
    .where('object_aliases.object_id', '=', objectId)
    .where('object_aliases.alias', '=', name);
  return eb('objects.digest', '=', eb.fn.coalesce(aliased, eb.val(name)));
}
