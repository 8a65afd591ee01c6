// A project's own prices of models (Weave's `llm_token_prices` at pricing level `project`, written
// by cost/create): include_costs prices a call's usage at the one in effect when it started,
// before the router catalogue's.
//
// - Prices are text: the exact plain decimal of the number the client wrote (`5e-06` is
//   "0.000005"), never a float; the cache prices are null when not given.
// - llm_token_prices_llm_idx: include_costs reads the prices of a page's models (project_id,
//   llm_id in …), newest effective first; cost/query and cost/purge use the primary key.
//
// The number 0010 belongs to another change.
import type { Migration } from 'kysely';
import type { Dialect } from '../db.ts';
import { createIndex, createTable } from './create-table.ts';

export function llmTokenPrices(dialect: Dialect): Migration {
  return {
    async up(db) {
      await createTable(db, dialect, 'llm_token_prices', {
        columns: {
          project_id: 'text',
          id: 'text',
          llm_id: 'text',
          provider_id: 'text',
          effective_date: 'text',
          prompt_token_cost: 'text',
          completion_token_cost: 'text',
          cache_read_input_token_cost: 'text?',
          cache_creation_input_token_cost: 'text?',
          prompt_token_cost_unit: 'text',
          completion_token_cost_unit: 'text',
          svc_user_id: 'text',
          created_at: 'text',
        },
        primaryKey: ['project_id', 'id'],
      });
      await createIndex(db, 'llm_token_prices_llm_idx', 'llm_token_prices', ['project_id', 'llm_id', 'effective_date']);
    },
    async down(db) {
      await db.schema.dropTable('llm_token_prices').execute();
    },
  };
}
