// Every table of the schema as the row mover sees it (export, import, copy): its key, each
// column's kind, and what a transfer does with it. Typed against schema.ts so a table or column
// added there does not compile until it is listed here; test/transfer/transfer-tables.test.ts
// also compares the list with a migrated database, which catches a migration whose table never
// reached schema.ts.
//
// The order is dependency-safe: a table comes after the tables its foreign keys point at
// (trajectory_logs → trajectory_groups → trajectories; auth_users → api_keys), so rows can be
// inserted table by table with the database's checks on.
import type { Selectable } from 'kysely';
import type { ColumnKind } from '../db/migrations/create-table.ts';
import type { Database, StoredJson, StoredJsonText, TableName } from '../db/schema.ts';

/**
 * - `project`: data of one project (a `project_id` column): exported, imported and copied, and
 *   filtered by project on export;
 * - `global`: the deployment's own rows (database API keys: hashes only): copied with the
 *   deployment, never exported, so a project's tarball carries no credentials of any kind;
 * - `cache`: derived, rebuilt by the database that serves it (cached sort orders, whose order may
 *   differ between SQLite and PostgreSQL for JSON values): neither exported nor copied.
 */
export type TransferScope = 'project' | 'global' | 'cache';

export interface TransferTable {
  readonly name: string;
  /** The primary key, in the order rows are read and paged (keyset paging). */
  readonly key: readonly string[];
  /** Every column and its kind: `json` moves as JSON text (lossless: `1.0` stays a float), `blob` as bytes. */
  readonly columns: Readonly<Record<string, ColumnKind>>;
  readonly scope: TransferScope;
}

// The kind a column's TypeScript type allows: the compiler rejects `text` for a JSON column.
type KindOf<V> = [NonNullable<V>] extends [StoredJson]
  ? 'json'
  : [NonNullable<V>] extends [StoredJsonText]
    ? 'json_text'
    : [NonNullable<V>] extends [Buffer]
      ? 'blob'
      : [NonNullable<V>] extends [number]
        ? 'int' | 'double'
        : 'text';
type ColumnsOf<T extends TableName> = { readonly [C in keyof Selectable<Database[T]> & string]-?: KindOf<Selectable<Database[T]>[C]> };
interface Spec<T extends TableName> {
  key: readonly (keyof Selectable<Database[T]> & string)[];
  columns: ColumnsOf<T>;
  scope: TransferScope;
}

// A mapped type over every table of schema.ts: a table missing here is a compile error.
const SPECS: { readonly [T in TableName]: Spec<T> } = {
  objects: {
    key: ['project_id', 'object_id', 'digest'],
    columns: {
      project_id: 'text',
      object_id: 'text',
      digest: 'text',
      version_index: 'int',
      kind: 'text',
      base_object_class: 'text',
      leaf_object_class: 'text',
      val: 'json_text',
      size_bytes: 'int',
      created_at: 'text',
      deleted_at: 'text',
      svc_user_id: 'text',
      is_latest: 'int',
    },
    scope: 'project',
  },
  tables: {
    key: ['project_id', 'digest'],
    columns: { project_id: 'text', digest: 'text', row_count: 'int', created_at: 'text' },
    scope: 'project',
  },
  rows: { key: ['project_id', 'digest'], columns: { project_id: 'text', digest: 'text', val: 'json_text' }, scope: 'project' },
  table_rows: {
    key: ['project_id', 'table_digest', 'row_index'],
    columns: { project_id: 'text', table_digest: 'text', row_index: 'int', row_digest: 'text' },
    scope: 'project',
  },
  calls: {
    key: ['project_id', 'id'],
    columns: {
      project_id: 'text',
      id: 'text',
      trace_id: 'text',
      parent_id: 'text',
      op_name: 'text',
      display_name: 'text',
      thread_id: 'text',
      turn_id: 'text',
      started_at: 'text',
      ended_at: 'text',
      attributes: 'json',
      inputs: 'json',
      output: 'json',
      exception: 'text',
      summary: 'json',
      svc_user_id: 'text',
      svc_username: 'text',
      svc_run_id: 'text',
      svc_run_step: 'int',
      svc_run_step_end: 'int',
      deleted_at: 'text',
      expire_at: 'text',
    },
    scope: 'project',
  },
  annotation_queues: {
    key: ['project_id', 'id'],
    columns: {
      project_id: 'text',
      id: 'text',
      name: 'text',
      description: 'text',
      scorer_refs: 'json',
      created_at: 'text',
      created_by: 'text',
      updated_at: 'text',
      deleted_at: 'text',
    },
    scope: 'project',
  },
  annotation_queue_items: {
    key: ['project_id', 'id'],
    columns: {
      project_id: 'text',
      id: 'text',
      queue_id: 'text',
      call_id: 'text',
      call_started_at: 'text',
      call_ended_at: 'text',
      call_op_name: 'text',
      call_trace_id: 'text',
      display_fields: 'json',
      added_by: 'text',
      created_at: 'text',
      created_by: 'text',
      updated_at: 'text',
      deleted_at: 'text',
    },
    scope: 'project',
  },
  annotator_queue_items_progress: {
    key: ['project_id', 'queue_item_id', 'annotator_id'],
    columns: {
      project_id: 'text',
      queue_item_id: 'text',
      annotator_id: 'text',
      queue_id: 'text',
      call_id: 'text',
      annotation_state: 'text',
      created_at: 'text',
      updated_at: 'text',
    },
    scope: 'project',
  },
  judgements: {
    key: ['project_id', 'id'],
    columns: {
      project_id: 'text',
      id: 'text',
      source_key: 'text',
      monitor_ref: 'text',
      scorer_ref: 'text',
      call_id: 'text',
      state: 'text',
      attempts: 'int',
      due_at: 'text',
      judge_call_id: 'text',
      feedback_id: 'text',
      cost_usd: 'text',
      error: 'text',
      requested_by: 'text',
      created_at: 'text',
      updated_at: 'text',
    },
    scope: 'project',
  },
  monitor_cursors: {
    key: ['project_id', 'monitor'],
    columns: { project_id: 'text', monitor: 'text', started_at: 'text', updated_at: 'text' },
    scope: 'project',
  },
  models: {
    key: ['id'],
    columns: {
      id: 'text',
      project_id: 'text',
      entity: 'text',
      project: 'text',
      name: 'text',
      base_model: 'text',
      run_id: 'text',
      created_at: 'text',
    },
    scope: 'project',
  },
  model_checkpoints: {
    key: ['project_id', 'model_id', 'step'],
    columns: { project_id: 'text', model_id: 'text', step: 'int', id: 'text', metrics: 'json', created_at: 'text' },
    scope: 'project',
  },
  trajectory_logs: {
    key: ['project_id', 'id'],
    columns: {
      project_id: 'text',
      id: 'text',
      model_id: 'text',
      split: 'text',
      step: 'int',
      created_at: 'text',
      metrics: 'json',
      group_count: 'int',
      trajectory_count: 'int',
      sums: 'json',
      table_digest: 'text',
    },
    scope: 'project',
  },
  trajectory_groups: {
    key: ['project_id', 'log_id', 'group_index'],
    columns: { project_id: 'text', log_id: 'text', group_index: 'int', data: 'json' },
    scope: 'project',
  },
  trajectories: {
    key: ['project_id', 'log_id', 'group_index', 'trajectory_index'],
    columns: {
      project_id: 'text',
      log_id: 'text',
      group_index: 'int',
      trajectory_index: 'int',
      reward: 'double',
      data: 'json',
      row_digest: 'text',
    },
    scope: 'project',
  },
  files: {
    key: ['project_id', 'digest'],
    columns: { project_id: 'text', digest: 'text', size_bytes: 'int', content: 'blob', created_at: 'text' },
    scope: 'project',
  },
  // The project's retention (Weave's TTL setting) moves with its data.
  project_ttl_settings: {
    key: ['project_id'],
    columns: { project_id: 'text', retention_days: 'int', updated_at: 'text', updated_by: 'text' },
    scope: 'project',
  },
  // Pending sweep work: files an expired call referenced. Harmless to move (the sweeper re-checks
  // each before deleting); left behind, those files would never be reclaimed.
  retention_file_candidates: {
    key: ['project_id', 'digest'],
    columns: { project_id: 'text', digest: 'text', queued_at: 'text' },
    scope: 'project',
  },
  // Tags and aliases of object versions: project data, moved with the objects they name.
  object_tags: {
    key: ['project_id', 'object_id', 'digest', 'tag'],
    columns: { project_id: 'text', object_id: 'text', digest: 'text', tag: 'text', created_at: 'text' },
    scope: 'project',
  },
  object_aliases: {
    key: ['project_id', 'object_id', 'alias'],
    columns: { project_id: 'text', object_id: 'text', alias: 'text', digest: 'text', created_at: 'text' },
    scope: 'project',
  },
  feedback: {
    key: ['project_id', 'id'],
    columns: {
      project_id: 'text',
      id: 'text',
      weave_ref: 'text',
      feedback_type: 'text',
      payload: 'json',
      creator: 'text',
      annotation_ref: 'text',
      runnable_ref: 'text',
      call_ref: 'text',
      trigger_ref: 'text',
      svc_user_id: 'text',
      created_at: 'text',
      deleted_at: 'text',
      queue_id: 'text',
    },
    scope: 'project',
  },
  // A project's prices of models (cost/create): include_costs gives the same costs after a move.
  llm_token_prices: {
    key: ['project_id', 'id'],
    columns: {
      project_id: 'text',
      id: 'text',
      llm_id: 'text',
      provider_id: 'text',
      effective_date: 'text',
      prompt_token_cost: 'text',
      completion_token_cost: 'text',
      cache_read_input_token_cost: 'text',
      cache_creation_input_token_cost: 'text',
      prompt_token_cost_unit: 'text',
      completion_token_cost_unit: 'text',
      svc_user_id: 'text',
      created_at: 'text',
    },
    scope: 'project',
  },
  auth_users: { key: ['username'], columns: { username: 'text', entities: 'json', created_at: 'text' }, scope: 'global' },
  api_keys: {
    key: ['id'],
    columns: {
      id: 'text',
      username: 'text',
      key_hash: 'text',
      name: 'text',
      created_at: 'text',
      last_used_at: 'text',
      revoked_at: 'text',
      expires_at: 'text',
      scope: 'text',
      entity_scopes: 'json',
    },
    scope: 'global',
  },
};

// Migration 0002's cache has no type in schema.ts (only sort-order-cache.ts reads it, in raw SQL).
const UNTYPED: readonly TransferTable[] = [
  {
    name: 'table_sort_orders',
    key: ['project_id', 'table_digest', 'sort_key', 'chunk'],
    columns: { project_id: 'text', table_digest: 'text', sort_key: 'text', chunk: 'int', row_indexes: 'json' },
    scope: 'cache',
  },
];

/** Every table of the schema, parents before children. */
export const TRANSFER_TABLES: readonly TransferTable[] = [
  ...Object.entries(SPECS as Readonly<Record<string, Omit<TransferTable, 'name'>>>).map(([name, spec]) => ({ name, ...spec })),
  ...UNTYPED,
];

/** The tables an export holds (project data), in insertion order. */
export const EXPORTED_TABLES: readonly TransferTable[] = TRANSFER_TABLES.filter((t) => t.scope === 'project');
/** The tables a whole-deployment copy moves: project data and the deployment's keys. */
export const COPIED_TABLES: readonly TransferTable[] = TRANSFER_TABLES.filter((t) => t.scope !== 'cache');

export function transferTable(name: string): TransferTable | undefined {
  return TRANSFER_TABLES.find((t) => t.name === name);
}
