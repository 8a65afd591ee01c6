// Every table of the schema as the row mover sees it (export, import, copy): its key and what a
// transfer does with it, in a safe order. The columns and their kinds come from the one column
// list, db/table-columns.ts; SPECS is a mapped type over that list, so a table added there does
// not compile until it is listed here. test/transfer/transfer-tables.test.ts compares the result
// with a migrated database, which catches a migration whose table or column never reached the list.
//
// The order is dependency-safe: a table comes after the tables its foreign keys point at
// (trajectory_logs → trajectory_groups → trajectories; auth_users → api_keys), so rows can be
// inserted table by table with the database's checks on.
import type { TableColumns } from '../db/columns.ts';
import type { ColumnKind } from '../db/migrations/create-table.ts';
import { ALL_TABLE_COLUMNS } from '../db/table-columns.ts';

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

type Columns = typeof ALL_TABLE_COLUMNS;
interface Spec<T extends keyof Columns> {
  key: readonly (keyof Columns[T] & string)[];
  scope: TransferScope;
}

const SPECS: { readonly [T in keyof Columns]: Spec<T> } = {
  objects: { key: ['project_id', 'object_id', 'digest'], scope: 'project' },
  tables: { key: ['project_id', 'digest'], scope: 'project' },
  rows: { key: ['project_id', 'digest'], scope: 'project' },
  table_rows: { key: ['project_id', 'table_digest', 'row_index'], scope: 'project' },
  calls: { key: ['project_id', 'id'], scope: 'project' },
  annotation_queues: { key: ['project_id', 'id'], scope: 'project' },
  annotation_queue_items: { key: ['project_id', 'id'], scope: 'project' },
  annotator_queue_items_progress: { key: ['project_id', 'queue_item_id', 'annotator_id'], scope: 'project' },
  judgements: { key: ['project_id', 'id'], scope: 'project' },
  monitor_cursors: { key: ['project_id', 'monitor'], scope: 'project' },
  models: { key: ['id'], scope: 'project' },
  model_checkpoints: { key: ['project_id', 'model_id', 'step'], scope: 'project' },
  trajectory_logs: { key: ['project_id', 'id'], scope: 'project' },
  trajectory_groups: { key: ['project_id', 'log_id', 'group_index'], scope: 'project' },
  trajectories: { key: ['project_id', 'log_id', 'group_index', 'trajectory_index'], scope: 'project' },
  files: { key: ['project_id', 'digest'], scope: 'project' },
  // The project's retention (Weave's TTL setting) moves with its data.
  project_ttl_settings: { key: ['project_id'], scope: 'project' },
  // Pending sweep work: files an expired call referenced. Harmless to move (the sweeper re-checks
  // each before deleting); left behind, those files would never be reclaimed.
  retention_file_candidates: { key: ['project_id', 'digest'], scope: 'project' },
  // Tags and aliases of object versions: project data, moved with the objects they name.
  object_tags: { key: ['project_id', 'object_id', 'digest', 'tag'], scope: 'project' },
  object_aliases: { key: ['project_id', 'object_id', 'alias'], scope: 'project' },
  feedback: { key: ['project_id', 'id'], scope: 'project' },
  // A project's prices of models (cost/create): include_costs gives the same costs after a move.
  llm_token_prices: { key: ['project_id', 'id'], scope: 'project' },
  auth_users: { key: ['username'], scope: 'global' },
  api_keys: { key: ['id'], scope: 'global' },
  // Migration 0002's cache (no Kysely type: only sort-order-cache.ts reads it, in raw SQL).
  table_sort_orders: { key: ['project_id', 'table_digest', 'sort_key', 'chunk'], scope: 'cache' },
};

function kinds(columns: TableColumns): Readonly<Record<string, ColumnKind>> {
  return Object.fromEntries(Object.entries(columns).map(([name, column]) => [name, column.kind]));
}

// SPECS' own order (Object.keys keeps it), each name narrowed back to a table of the list.
const ORDER = Object.keys(SPECS).filter((name): name is keyof Columns => name in ALL_TABLE_COLUMNS);

/** Every table of the schema, parents before children. */
export const TRANSFER_TABLES: readonly TransferTable[] = ORDER.map((name) => ({
  name,
  key: SPECS[name].key,
  columns: kinds(ALL_TABLE_COLUMNS[name]),
  scope: SPECS[name].scope,
}));

/** The tables an export holds (project data), in insertion order. */
export const EXPORTED_TABLES: readonly TransferTable[] = TRANSFER_TABLES.filter((t) => t.scope === 'project');
/** The tables a whole-deployment copy moves: project data and the deployment's keys. */
export const COPIED_TABLES: readonly TransferTable[] = TRANSFER_TABLES.filter((t) => t.scope !== 'cache');

export function transferTable(name: string): TransferTable | undefined {
  return TRANSFER_TABLES.find((t) => t.name === name);
}
