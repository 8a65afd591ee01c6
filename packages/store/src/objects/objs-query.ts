// POST /objs/query: live versions of a project's objects, filtered, sorted and paged in SQL.
//
// Cost: every query starts with project_id and orders by an indexed column list, so a page reads
// about `offset + limit` index entries, not the project: objects_created_idx (project_id,
// created_at, version_index) for the default and created_at orders, its partial twin
// (WHERE is_latest = 1) for latest_only, objects_version_index_key (project_id, object_id,
// version_index) for the object_id order. Filters that are not in an index are checked on the
// rows the index walk reaches (tags and aliases: one primary-key probe of their table per row).
// The tags and aliases asked for are read afterwards, for the page only.
import { invalidRequest, mapInTurns } from '@weft/core';
import type * as T from '@weft/types';
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Database, Db, StoredJsonText } from '../db/index.ts';
import type { RequestContext } from '../store.ts';
import { OBJ_META_COLUMNS, toObjSchema, type ObjMetaRow } from './obj-schema.ts';
import { hasAnyAlias, hasAnyTag, labelsOf } from './version-labels.ts';
import { applyPaging, checkPaging, readPaged } from '../db/paging.ts';

type SortField = 'created_at' | 'object_id';
type ObjQuery = SelectQueryBuilder<Database, 'objects', ObjMetaRow & { val?: StoredJsonText }>;
type Direction = 'asc' | 'desc';

export async function objsQuery(db: Db, req: T.ObjsQueryReq, _ctx: RequestContext): Promise<T.ObjsQueryRes> {
  const query = objsQueryBuilder(db, req);
  if (query === null) return { objs: [] };
  // Without a limit the answer is the whole project: decoded with turns for the event loop.
  const rows = await readPaged(db, query, checkPaging(req.limit, req.offset));
  const metadataOnly = req.metadata_only === true;
  const includeStorageSize = req.include_storage_size === true;
  const labels = req.include_tags_and_aliases === true ? await labelsOf(db, req.project_id, rows) : undefined;
  return {
    objs: await mapInTurns(rows, (row, i) =>
      toObjSchema(db.dialect, row, {
        ...(metadataOnly ? {} : { val: row.val }),
        includeStorageSize,
        ...(labels ? { labels: labels[i] } : {}),
      }),
    ),
  };
}

/**
 * The SELECT for a request, or null when the request can match nothing (a zero limit).
 * Exported so tests can inspect its plan.
 */
export function objsQueryBuilder(db: Db, req: T.ObjsQueryReq): ObjQuery | null {
  const { limit, offset } = checkPaging(req.limit, req.offset);
  const order = sortKeys(req.sort_by);
  const f = req.filter ?? {};
  // Weave tests lists for truthiness: an empty or null list is no condition.
  const nonEmpty = (list: readonly string[] | null | undefined): list is readonly string[] => Array.isArray(list) && list.length > 0;
  if (limit === 0) return null;
  // Only the `latest` alias: the latest versions, as latest_only (the partial index).
  const onlyLatestAlias = nonEmpty(f.aliases) && f.aliases.every((a) => a === 'latest');
  const latestOnly = f.latest_only === true || onlyLatestAlias;

  let q: ObjQuery = db.kysely
    .selectFrom('objects')
    .select(OBJ_META_COLUMNS)
    .$if(req.metadata_only !== true, (qb) => qb.select('val'))
    .where('project_id', '=', req.project_id)
    .where('deleted_at', 'is', null);
  // Literal `= 1`, not a bound parameter: both planners then match the partial index.
  if (latestOnly) q = q.where('is_latest', '=', sql.lit(1));
  if (f.is_op === true) q = q.where('kind', '=', 'op');
  if (f.is_op === false) q = q.where('kind', '!=', 'op');
  if (nonEmpty(f.object_ids)) q = q.where('object_id', 'in', [...f.object_ids]);
  // base_object_class is NULL for plain values, which `IN` never matches.
  if (nonEmpty(f.base_object_classes)) q = q.where('base_object_class', 'in', [...f.base_object_classes]);
  // Versions without a class are kept (they are not of an excluded class), as Weave's in-memory
  // server does and our spec says; Weave's SQL backends drop them through NULL semantics.
  const excluded = f.exclude_base_object_classes;
  if (nonEmpty(excluded)) {
    q = q.where((eb) => eb.or([eb('base_object_class', 'is', null), eb('base_object_class', 'not in', [...excluded])]));
  }
  if (nonEmpty(f.leaf_object_classes)) q = q.where('leaf_object_class', 'in', [...f.leaf_object_classes]);
  const { tags, aliases } = f;
  if (nonEmpty(tags)) q = q.where((eb) => hasAnyTag(eb, tags));
  if (nonEmpty(aliases) && !onlyLatestAlias) q = q.where((eb) => hasAnyAlias(eb, aliases));

  for (const [field, direction] of order) q = q.orderBy(field, direction);
  return applyPaging(q, { limit, offset });
}

/**
 * ORDER BY keys: the requested object_id / created_at keys (the default order when none is
 * given), then version_index as Weave breaks ties, then object_id ASC so that versions of
 * different objects created in the same millisecond still page deterministically. Weave ignores
 * other fields; Weft refuses them (the spec's enum, and here for direct store users).
 */
function sortKeys(sortBy: readonly T.ObjSortItem[] | null | undefined): [SortField | 'version_index', Direction][] {
  const keys: [SortField | 'version_index', Direction][] = [];
  for (const item of sortBy ?? []) {
    const direction = item.direction ?? 'asc';
    if (direction !== 'asc' && direction !== 'desc') {
      throw invalidRequest(`Invalid sort direction ${JSON.stringify(item.direction)}: use "asc" or "desc"`);
    }
    if (item.field !== 'object_id' && item.field !== 'created_at') {
      throw invalidRequest(`Invalid sort field ${JSON.stringify(item.field)}: objects sort by "object_id" or "created_at"`);
    }
    // A repeated field cannot change the order: its first occurrence already decides.
    if (keys.some(([field]) => field === item.field)) continue;
    keys.push([item.field, direction]);
  }
  if (keys.length === 0) keys.push(['created_at', 'asc']);
  // Versions written in the same millisecond keep their order: newest first means the higher
  // version first too (a page of versions sorted by created_at desc starts with the latest).
  keys.push(['version_index', keys.find(([field]) => field === 'created_at')?.[1] ?? 'asc']);
  if (!keys.some(([field]) => field === 'object_id')) keys.push(['object_id', 'asc']);
  return keys;
}
