// Database rows of `objects` → wire ObjSchema. Optional fields are omitted, never null; the class
// family is '' when there is none (Weave says null; the seed's ObjSchema has a non-null string).
import type * as T from '@weft/types';
import { readJson, type Dialect, type Row } from '../db/index.ts';
import type { VersionLabels } from './version-labels.ts';

/** Every column but `val`, which metadata-only reads must not even fetch. */
export const OBJ_META_COLUMNS = [
  'project_id',
  'object_id',
  'digest',
  'version_index',
  'kind',
  'base_object_class',
  'leaf_object_class',
  'size_bytes',
  'created_at',
  'deleted_at',
  'svc_user_id',
  'is_latest',
] as const;

export type ObjMetaRow = Pick<Row<'objects'>, (typeof OBJ_META_COLUMNS)[number]>;

export interface ObjSchemaOptions {
  /** The stored `val` column; absent for metadata-only reads, which answer `{}`. */
  val?: unknown;
  includeStorageSize?: boolean;
  /** The version's tags and aliases, when the request set `include_tags_and_aliases`. */
  labels?: VersionLabels;
}

export function toObjSchema(dialect: Dialect, row: ObjMetaRow, opts: ObjSchemaOptions = {}): T.ObjSchema {
  const obj: T.ObjSchema = {
    project_id: row.project_id,
    object_id: row.object_id,
    created_at: row.created_at,
    digest: row.digest,
    version_index: row.version_index,
    is_latest: row.is_latest === 1 ? 1 : 0,
    kind: row.kind === 'op' ? 'op' : 'object',
    base_object_class: row.base_object_class ?? '',
    val: opts.val === undefined ? {} : readJson(dialect, opts.val),
  };
  if (row.deleted_at !== null) obj.deleted_at = row.deleted_at;
  if (row.leaf_object_class !== null) obj.leaf_object_class = row.leaf_object_class;
  if (row.svc_user_id !== null) obj.svc_user_id = row.svc_user_id;
  if (opts.includeStorageSize) obj.size_bytes = row.size_bytes;
  if (opts.labels) {
    obj.tags = opts.labels.tags;
    obj.aliases = opts.labels.aliases;
  }
  return obj;
}
