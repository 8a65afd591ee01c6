// The columns of the deployment's keys, retention and prices (see ./table-columns.ts).
import type { Access } from '@weft/types/spec';
import { col, generated, nullable, type TableColumns } from './columns.ts';

export const DEPLOYMENT_TABLES = {
  /** A user of keys kept in the database (migration 0007); global, not per project. */
  auth_users: {
    username: col.text(),
    /** JSON array of entity names; "*" grants every entity. */
    entities: col.json(),
    created_at: col.datetime(),
  },
  /** An API key kept in the database: its hash only; `id` is the key's public first characters. */
  api_keys: {
    id: col.text(),
    username: col.text(),
    key_hash: col.text(),
    name: nullable(col.text()),
    created_at: col.datetime(),
    last_used_at: nullable(col.datetime()),
    revoked_at: nullable(col.datetime()),
    expires_at: nullable(col.datetime()),
    /** What the key may do (migration 0014): `read`, `write` or `admin`; older keys `admin`. */
    scope: generated(col.text<Access>()),
    /** Levels for named entities over `scope` (migration 0016): `{entity: level}` as JSON; null: none. */
    entity_scopes: nullable(col.json()),
  },
  /** A project's retention (migration 0008); `retention_days` null: none (cleared). */
  project_ttl_settings: {
    project_id: col.text(),
    retention_days: nullable(col.int()),
    updated_at: col.datetime(),
    /** The user who changed it last. */
    updated_by: col.text(),
  },
  /** A file an expired call referenced, to delete once nothing references it (migration 0008). */
  retention_file_candidates: {
    project_id: col.text(),
    digest: col.text(),
    /** When a call referencing it was swept; the file is checked a grace period later. */
    queued_at: col.datetime(),
  },
  /**
   * A project's price of a model (migration 0011; Weave's llm_token_prices at pricing level
   * `project`). Prices are exact plain decimal strings, as sent.
   */
  llm_token_prices: {
    project_id: col.text(),
    id: col.text(),
    llm_id: col.text(),
    provider_id: col.text(),
    effective_date: col.datetime(),
    prompt_token_cost: col.text(),
    completion_token_cost: col.text(),
    /** null: not given (cache reads cost the prompt price). */
    cache_read_input_token_cost: nullable(col.text()),
    cache_creation_input_token_cost: nullable(col.text()),
    prompt_token_cost_unit: col.text(),
    completion_token_cost_unit: col.text(),
    /** The user who added it (Weave's created_by). */
    svc_user_id: col.text(),
    created_at: col.datetime(),
  },
} satisfies Record<string, TableColumns>;
