// A stored `models` row as the wire's ModelSchema (what ART's register() reads back).
import type * as T from '@weft/types';
import type { Row } from '../db/index.ts';

export function toModelSchema(row: Row<'models'>): T.ModelSchema {
  return {
    id: row.id,
    entity: row.entity,
    project: row.project,
    name: row.name,
    base_model: row.base_model,
    run_id: row.run_id,
  };
}
