// What every dialect helper takes: the dialect (or anything with a `dialect`, such as a Db), and
// JSON held by a column or an expression.
import { sql, type Expression } from 'kysely';
import type { Db, Dialect } from './db.ts';

export type DialectSource = Dialect | Pick<Db, 'dialect'>;
/**
 * A column name (`'val'`, `'objects.val'`) or any SQL expression holding a JSON value, or a
 * column of JSON text as written (asWritten: PostgreSQL json, the table rows).
 */
export type JsonSource = string | Expression<unknown> | AsWrittenColumn;
/** A column of JSON kept as written (StoredJsonText): PostgreSQL json rather than jsonb. */
export interface AsWrittenColumn {
  readonly asWritten: string;
}
export const asWritten = (column: string): AsWrittenColumn => ({ asWritten: column });
export type JsonTypeName = 'null' | 'number' | 'string' | 'boolean' | 'object' | 'array';

export const dialectOf = (d: DialectSource): Dialect => (typeof d === 'string' ? d : d.dialect);
export const isAsWritten = (column: JsonSource): column is AsWrittenColumn => typeof column === 'object' && 'asWritten' in column;
export const source = (column: JsonSource): Expression<unknown> =>
  typeof column === 'string' ? sql.ref(column) : isAsWritten(column) ? sql.ref(column.asWritten) : column;
