// The columns of ART models and their trajectory logs (see ./table-columns.ts).
import { col, nullable, type TableColumns } from './columns.ts';

export const MODEL_TABLES = {
  /** ART models: small, keyed by id alone (a Citus reference table, not distributed). */
  models: {
    id: col.text(),
    project_id: col.text(),
    entity: col.text(),
    project: col.text(),
    name: col.text(),
    base_model: col.text(),
    run_id: nullable(col.text()),
    created_at: col.datetime(),
  },
  /** A saved step of a model; `metrics` holds the registered metrics and its logs' aggregates. */
  model_checkpoints: {
    project_id: col.text(),
    model_id: col.text(),
    step: col.int(),
    id: col.text(),
    metrics: col.json(),
    created_at: col.datetime(),
  },
  trajectory_logs: {
    project_id: col.text(),
    id: col.text(),
    model_id: col.text(),
    split: col.text(),
    step: col.int(),
    created_at: col.datetime(),
    metrics: col.json(),
    group_count: col.int(),
    trajectory_count: col.int(),
    /** LogSums of models/log-metrics.ts; null for logs stored before migration 0005 until the history computes them. */
    sums: nullable(col.json()),
    /** Digest of the log's trajectories as a table; null for logs stored before migration 0006. */
    table_digest: nullable(col.text()),
  },
  /** A trajectory group without its trajectories. */
  trajectory_groups: {
    project_id: col.text(),
    log_id: col.text(),
    group_index: col.int(),
    data: col.json(),
  },
  trajectories: {
    project_id: col.text(),
    log_id: col.text(),
    group_index: col.int(),
    trajectory_index: col.int(),
    reward: col.double(),
    /** JSON null when row_digest is set (the content is that row's); else the trajectory (before migration 0006). */
    data: col.json(),
    /** Its row in the log's table. */
    row_digest: nullable(col.text()),
  },
} satisfies Record<string, TableColumns>;
