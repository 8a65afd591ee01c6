// The Kysely view of the schema created by ./migrations. Column names are the wire names.
//
// Conventions (identical in both databases):
// - every table but `models` has a primary key starting with project_id ("<entity>/<project>"),
//   and so does every index, so tables can become Citus tables distributed by project_id;
// - datetimes are TEXT in ISO-8601 UTC with milliseconds, `2025-01-01T00:00:00.000Z` (fixed
//   width, so text order is time order), created in JS (see nowIso);
// - JSON is jsonb in PostgreSQL and validated text in SQLite: write it with jsonParam/jsonText and
//   read it with readJson (./dialect-helpers.ts); table rows (`rows.val`, migration 0012) and
//   objects' values (`objects.val`, migration 0021) are PostgreSQL json, the text as written,
//   like SQLite's: written with jsonTextAsWritten;
// - booleans are integers 0/1; binary is blob/bytea (a Buffer in JS);
// - text compares byte-wise in both (PostgreSQL columns use COLLATE "C").
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { Access } from '@weft/types/spec';

declare const storedJson: unique symbol;
/**
 * A JSON column's SQL value. Opaque on purpose: binding a JS object directly would fail in
 * better-sqlite3 and, for arrays, turn into a PostgreSQL array literal in pg. Use jsonParam or
 * jsonText to write and readJson to read.
 */
export interface StoredJson {
  readonly [storedJson]: 'StoredJson';
}

declare const storedJsonText: unique symbol;
/**
 * A column holding JSON text as written (PostgreSQL json, not jsonb): table rows, which are large
 * and read whole far more often than inside. A type of its own, so only jsonTextAsWritten (no
 * jsonb cast) can write it.
 */
export interface StoredJsonText {
  readonly [storedJsonText]: 'StoredJsonText';
}

export type Json = ColumnType<StoredJson, StoredJson, StoredJson>;
export type JsonAsWritten = ColumnType<StoredJsonText, StoredJsonText, StoredJsonText>;
export type NullableJson = ColumnType<StoredJson | null, StoredJson | null, StoredJson | null>;
/** ISO-8601 UTC with milliseconds, e.g. `2025-01-01T00:00:00.000Z`. */
export type IsoDatetime = string;
/** A boolean stored as an integer (a CHECK keeps it 0 or 1). */
export type Flag = 0 | 1;

export interface ObjectsTable {
  project_id: string;
  object_id: string;
  digest: string;
  version_index: number;
  kind: string;
  base_object_class: string | null;
  leaf_object_class: string | null;
  val: JsonAsWritten;
  /** Length of the canonical JSON dump of `val`. */
  size_bytes: number;
  created_at: IsoDatetime;
  deleted_at: IsoDatetime | null;
  svc_user_id: string | null;
  /** Exactly one live version per object has 1; maintained by the store. */
  is_latest: Flag;
}

export interface TablesTable {
  project_id: string;
  digest: string;
  row_count: number;
  created_at: IsoDatetime;
}

/** The ordered (duplicates allowed) row list of a table; a page is a range of row_index. */
export interface TableRowsTable {
  project_id: string;
  table_digest: string;
  row_index: number;
  row_digest: string;
}

/** Table rows, stored once per digest. */
export interface RowsTable {
  project_id: string;
  digest: string;
  val: JsonAsWritten;
}

/** Start and end may arrive in either order and are merged; a call is visible once started. */
export interface CallsTable {
  project_id: string;
  id: string;
  trace_id: string | null;
  parent_id: string | null;
  op_name: string | null;
  display_name: string | null;
  thread_id: string | null;
  turn_id: string | null;
  started_at: IsoDatetime | null;
  ended_at: IsoDatetime | null;
  attributes: NullableJson;
  inputs: NullableJson;
  output: NullableJson;
  exception: string | null;
  summary: NullableJson;
  svc_user_id: string | null;
  svc_username: string | null;
  svc_run_id: string | null;
  svc_run_step: number | null;
  svc_run_step_end: number | null;
  deleted_at: IsoDatetime | null;
  expire_at: IsoDatetime | null;
}

export interface AnnotationQueuesTable {
  project_id: string;
  id: string;
  name: string;
  description: string;
  scorer_refs: Json;
  created_at: IsoDatetime;
  created_by: string;
  updated_at: IsoDatetime;
  deleted_at: IsoDatetime | null;
}

/** A call held by an annotation queue, with the call's fields copied when added (migration 0015). */
export interface AnnotationQueueItemsTable {
  project_id: string;
  id: string;
  queue_id: string;
  call_id: string;
  call_started_at: IsoDatetime;
  call_ended_at: IsoDatetime | null;
  call_op_name: string;
  call_trace_id: string;
  display_fields: Json;
  added_by: string | null;
  created_at: IsoDatetime;
  created_by: string;
  updated_at: IsoDatetime;
  deleted_at: IsoDatetime | null;
}

/** One judgement of a call by an LLM-as-judge scorer (migration 0020). */
export interface JudgementsTable {
  project_id: string;
  id: string;
  /** `monitor:<name>` or `request:<id>`: with scorer_ref and call_id, unique. */
  source_key: string;
  monitor_ref: string | null;
  scorer_ref: string;
  call_id: string;
  state: 'queued' | 'running' | 'done' | 'failed';
  attempts: number;
  /** queued: when it may be claimed; running: when its claim lapses (the judge is presumed gone). */
  due_at: IsoDatetime;
  judge_call_id: string | null;
  feedback_id: string;
  cost_usd: string | null;
  error: string | null;
  requested_by: string;
  created_at: IsoDatetime;
  updated_at: IsoDatetime;
}

/** How far a monitor has looked at its project's calls (migration 0020). */
export interface MonitorCursorsTable {
  project_id: string;
  monitor: string;
  started_at: IsoDatetime;
  updated_at: IsoDatetime;
}

/** One annotator's state on one queue item (migration 0015). */
export interface AnnotatorQueueItemsProgressTable {
  project_id: string;
  queue_item_id: string;
  annotator_id: string;
  queue_id: string;
  call_id: string;
  annotation_state: string;
  created_at: IsoDatetime;
  updated_at: IsoDatetime;
}

/** ART models: small, keyed by id alone (a Citus reference table, not distributed). */
export interface ModelsTable {
  id: string;
  project_id: string;
  entity: string;
  project: string;
  name: string;
  base_model: string;
  run_id: string | null;
  created_at: IsoDatetime;
}

/** A saved step of a model; `metrics` holds the registered metrics and its logs' aggregates. */
export interface ModelCheckpointsTable {
  project_id: string;
  model_id: string;
  step: number;
  id: string;
  metrics: Json;
  created_at: IsoDatetime;
}

export interface TrajectoryLogsTable {
  project_id: string;
  id: string;
  model_id: string;
  split: string;
  step: number;
  created_at: IsoDatetime;
  metrics: Json;
  group_count: number;
  trajectory_count: number;
  /** LogSums of models/log-metrics.ts; null for logs stored before migration 0005 until the history computes them. */
  sums: Json | null;
  /** Digest of the log's trajectories as a table; null for logs stored before migration 0006. */
  table_digest: string | null;
}

/** A trajectory group without its trajectories. */
export interface TrajectoryGroupsTable {
  project_id: string;
  log_id: string;
  group_index: number;
  data: Json;
}

export interface TrajectoriesTable {
  project_id: string;
  log_id: string;
  group_index: number;
  trajectory_index: number;
  reward: number;
  /** JSON null when row_digest is set (the content is that row's); else the trajectory (before migration 0006). */
  data: Json;
  /** Its row in the log's table. */
  row_digest: string | null;
}

export interface FilesTable {
  project_id: string;
  digest: string;
  size_bytes: number;
  content: Buffer;
  created_at: IsoDatetime;
}

export interface FeedbackTable {
  project_id: string;
  id: string;
  weave_ref: string;
  feedback_type: string;
  payload: Json;
  creator: string | null;
  annotation_ref: string | null;
  runnable_ref: string | null;
  call_ref: string | null;
  trigger_ref: string | null;
  svc_user_id: string | null;
  created_at: IsoDatetime;
  deleted_at: IsoDatetime | null;
  /** The annotation queue it was written from (migration 0015); null outside queues. */
  queue_id: string | null;
}

/** A user of keys kept in the database (migration 0007); global, not per project. */
export interface AuthUsersTable {
  username: string;
  /** JSON array of entity names; "*" grants every entity. */
  entities: Json;
  created_at: IsoDatetime;
}

/** An API key kept in the database: its hash only; `id` is the key's public first characters. */
export interface ApiKeysTable {
  id: string;
  username: string;
  key_hash: string;
  name: string | null;
  created_at: IsoDatetime;
  last_used_at: IsoDatetime | null;
  revoked_at: IsoDatetime | null;
  expires_at: IsoDatetime | null;
  /** What the key may do (migration 0014): `read`, `write` or `admin`; older keys `admin`. */
  scope: Generated<Access>;
  /** Levels for named entities over `scope` (migration 0016): `{entity: level}` as JSON; null: none. */
  entity_scopes: NullableJson;
}

/** A project's retention (migration 0008); `retention_days` null: none (cleared). */
export interface ProjectTtlSettingsTable {
  project_id: string;
  retention_days: number | null;
  updated_at: IsoDatetime;
  /** The user who changed it last. */
  updated_by: string;
}

/** A file an expired call referenced, to delete once nothing references it (migration 0008). */
export interface RetentionFileCandidatesTable {
  project_id: string;
  digest: string;
  /** When a call referencing it was swept; the file is checked a grace period later. */
  queued_at: IsoDatetime;
}

/**
 * A project's price of a model (migration 0011; Weave's llm_token_prices at pricing level
 * `project`). Prices are exact plain decimal strings, as sent.
 */
export interface LlmTokenPricesTable {
  project_id: string;
  id: string;
  llm_id: string;
  provider_id: string;
  effective_date: IsoDatetime;
  prompt_token_cost: string;
  completion_token_cost: string;
  /** null: not given (cache reads cost the prompt price). */
  cache_read_input_token_cost: string | null;
  cache_creation_input_token_cost: string | null;
  prompt_token_cost_unit: string;
  completion_token_cost_unit: string;
  /** The user who added it (Weave's created_by). */
  svc_user_id: string;
  created_at: IsoDatetime;
}

/** A tag on one object version (migration 0010); removed when the version is deleted. */
export interface ObjectTagsTable {
  project_id: string;
  object_id: string;
  digest: string;
  tag: string;
  created_at: IsoDatetime;
}

/**
 * An alias of an object, naming one of its live versions by digest (migration 0010); setting it
 * again moves it. `latest` is never stored (it is the is_latest version).
 */
export interface ObjectAliasesTable {
  project_id: string;
  object_id: string;
  alias: string;
  digest: string;
  /** When it was last set (moved). */
  created_at: IsoDatetime;
}

export interface Database {
  objects: ObjectsTable;
  tables: TablesTable;
  table_rows: TableRowsTable;
  rows: RowsTable;
  calls: CallsTable;
  annotation_queues: AnnotationQueuesTable;
  annotation_queue_items: AnnotationQueueItemsTable;
  annotator_queue_items_progress: AnnotatorQueueItemsProgressTable;
  judgements: JudgementsTable;
  monitor_cursors: MonitorCursorsTable;
  models: ModelsTable;
  model_checkpoints: ModelCheckpointsTable;
  trajectory_logs: TrajectoryLogsTable;
  trajectory_groups: TrajectoryGroupsTable;
  trajectories: TrajectoriesTable;
  files: FilesTable;
  feedback: FeedbackTable;
  auth_users: AuthUsersTable;
  api_keys: ApiKeysTable;
  project_ttl_settings: ProjectTtlSettingsTable;
  retention_file_candidates: RetentionFileCandidatesTable;
  llm_token_prices: LlmTokenPricesTable;
  object_tags: ObjectTagsTable;
  object_aliases: ObjectAliasesTable;
}

export type TableName = keyof Database;
/** A row as read, as inserted, as updated: e.g. `Row<'objects'>`, `NewRow<'calls'>`. */
export type Row<T extends TableName> = Selectable<Database[T]>;
export type NewRow<T extends TableName> = Insertable<Database[T]>;
export type RowUpdate<T extends TableName> = Updateable<Database[T]>;
