// POST /obj/read: one version, named by digest, `latest` or `v<N>`.
import { notFound, objectDeleted } from '@weft/core';
import type * as T from '@weft/types';
import type { Db } from '../db/index.ts';
import type { RequestContext } from '../store.ts';
import { OBJ_META_COLUMNS, toObjSchema, type ObjMetaRow } from './obj-schema.ts';
import { parseVersionRef, versionCondition } from './version-ref.ts';

export async function objRead(db: Db, req: T.ObjReadReq, _ctx: RequestContext): Promise<T.ObjReadRes> {
  const metadataOnly = req.metadata_only === true;
  const ref = parseVersionRef(req.digest);
  const base = db.kysely
    .selectFrom('objects')
    .select(OBJ_META_COLUMNS)
    .$if(!metadataOnly, (q) => q.select('val'))
    .where('project_id', '=', req.project_id)
    .where('object_id', '=', req.object_id);

  let row: (ObjMetaRow & { val?: unknown }) | undefined = await base.where((eb) => versionCondition(eb, ref)).executeTakeFirst();
  // `latest` when every version is deleted: the last one created is the one reported deleted,
  // as ClickHouse's is_latest (computed over deleted rows too) would.
  if (!row && ref.kind === 'latest') {
    row = await base.orderBy('created_at', 'desc').orderBy('version_index', 'desc').limit(1).executeTakeFirst();
  }
  if (!row) throw notFound(`Obj ${req.object_id}:${req.digest} not found`);
  if (row.deleted_at !== null) {
    throw objectDeleted(`${req.object_id}:v${row.version_index} was deleted at ${row.deleted_at}`, row.deleted_at);
  }
  return { obj: toObjSchema(db.dialect, row, metadataOnly ? {} : { val: row.val }) };
}
