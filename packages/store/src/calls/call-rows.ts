// The one upsert of `calls`. A call's row has two halves written by different requests: the start
// (call/start) and the end (call/end); an upsert replaces only the columns of the half it carries,
// so the halves merge in either order. A whole call (an OTLP span, or a start followed by its end
// in one call/upsert_batch) carries both and is one statement instead of two.
//
// Several rows go in one statement when they are distinct calls: PostgreSQL refuses a statement
// that touches one row twice (callers keep a call's repeats apart).
//
// Each statement (its row count, the columns written, the columns replaced) is built and compiled
// once per database (db/compiled-once.ts) and its values bound on each run: an OTLP export runs
// the same few statements many times over. Work on a value (refusing U+0000 in JSON text, the
// expiry's earliest anchor) happens here on each run, never in the statement's build.
import { sql, type InsertObject, type Kysely } from 'kysely';
import { compiledOnceByPosition, type CompiledRun } from '../db/compiled-once.ts';
import { jsonTextSql, refuseNul, type CallsTable, type Database, type Db, type NewRow, type StoredJson } from '../db/index.ts';
import { TABLE_COLUMNS } from '../db/table-columns.ts';
import { expireAtSql, expiryFrom } from '../retention/expire-at.ts';

type CallColumn = Exclude<keyof CallsTable, 'project_id' | 'id'>;

/** What a start replaces on a stored row: every column it carries (a missing optional becomes null). */
export const START_COLUMNS = [
  'trace_id',
  'parent_id',
  'op_name',
  'display_name',
  'thread_id',
  'turn_id',
  'started_at',
  'expire_at',
  'attributes',
  'inputs',
  'svc_user_id',
  'svc_run_id',
  'svc_run_step',
] as const satisfies readonly CallColumn[];

/**
 * What an end replaces. Not `expire_at`: an end that arrives first stamps one (a start that never
 * comes would otherwise keep the row for ever), and the start's, when it comes, wins.
 */
export const END_COLUMNS = ['ended_at', 'exception', 'output', 'summary', 'svc_run_step_end'] as const satisfies readonly CallColumn[];

/** A start and its end together. */
export const WHOLE_COLUMNS = [...START_COLUMNS, ...END_COLUMNS] as const;

/** What a re-sent OTLP span replaces: its whole call, except the RL run's columns, which spans do not carry. */
export const SPAN_COLUMNS = WHOLE_COLUMNS.filter((c) => c !== 'svc_run_id' && c !== 'svc_run_step' && c !== 'svc_run_step_end');

/** A column's value as the upsert takes it: JSON as its text. */
type Plain<V> = V extends StoredJson ? string : V;

/**
 * A row of calls as written, in plain values; JSON columns as JSON text. A field left out (or
 * undefined) is not written: NULL on insert, and a column replaced without a value becomes NULL.
 * No expire_at: `expire_from` is the stored datetime the expiry counts from (started_at; ended_at
 * for an end that comes first), and expire_at is it plus the project's retention in force, NULL
 * when the project has none.
 */
export type CallRow = { [C in keyof Omit<NewRow<'calls'>, 'expire_at'>]: Plain<NewRow<'calls'>[C]> } & { expire_from?: string };

type Field = keyof CallRow;

const CALL_COLUMNS = TABLE_COLUMNS.calls;
/** Every field, in the order of the table's columns (which is the statement's). */
const FIELDS = (Object.keys(CALL_COLUMNS) as (keyof typeof CALL_COLUMNS)[]).map((c): Field => (c === 'expire_at' ? 'expire_from' : c));
const JSON_FIELDS: ReadonlySet<Field> = new Set(FIELDS.filter((f) => f !== 'expire_from' && CALL_COLUMNS[f].kind === 'json'));

/**
 * Rows per statement at most, in chunks of a power of two: a statement's text then repeats from
 * batch to batch and stays short enough for SQLite's statement cache (db/statement-cache.ts)
 * instead of being prepared again for every batch size.
 */
const MAX_ROWS = 16;

/** The statements built so far, by row count, fields written and columns replaced. */
const statements = new Map<string, CompiledRun<readonly unknown[], unknown>>();

/**
 * Inserts the rows, or replaces `replace` on the calls already stored (by project and id), on
 * `on`: db.kysely or a transaction of it. Every row's values are checked before any is written.
 */
export async function upsertCallRows(
  db: Db,
  on: Kysely<Database>,
  rows: readonly CallRow[],
  replace: readonly CallColumn[],
): Promise<void> {
  if (rows.length === 0) return;
  const fields = FIELDS.filter((f) => rows.some((row) => row[f] !== undefined));
  const values = boundValues(rows, fields);
  const width = fields.length;
  const shape = `${fields.join(',')}|${replace.join(',')}`;
  for (let at = 0; at < rows.length;) {
    const size = Math.min(MAX_ROWS, 2 ** Math.floor(Math.log2(rows.length - at)));
    await statement(size, fields, replace, shape)(db, values.slice(at * width, (at + size) * width), on);
    at += size;
  }
}

/** Each row's values in the order of `fields`, as bound: JSON text checked, the expiry's anchor clamped. */
function boundValues(rows: readonly CallRow[], fields: readonly Field[]): unknown[] {
  const values: unknown[] = [];
  for (const row of rows) {
    for (const f of fields) {
      const v = row[f] ?? null;
      if (typeof v === 'string') {
        if (f === 'expire_from') {
          values.push(expiryFrom(v));
          continue;
        }
        if (JSON_FIELDS.has(f)) refuseNul(v);
      }
      values.push(v);
    }
  }
  return values;
}

function statement(size: number, fields: readonly Field[], replace: readonly CallColumn[], shape: string) {
  const key = `${size}|${shape}`;
  let run = statements.get(key);
  if (!run) {
    const names = Array.from({ length: size }, (_, r) => fields.map((f) => `${r}.${f}`)).flat();
    const set = Object.fromEntries(replace.map((column) => [column, sql.ref(`excluded.${column}`)]));
    run = compiledOnceByPosition(names, (db, markers) => {
      const values = Array.from({ length: size }, (_, r) => {
        const at = (f: Field) => markers[r * fields.length + fields.indexOf(f)]!;
        const row: Record<string, unknown> = {};
        for (const f of fields) {
          if (f === 'expire_from') row.expire_at = expireAtSql(db, at('project_id'), at(f));
          else row[f] = JSON_FIELDS.has(f) ? jsonTextSql(db, at(f)) : at(f);
        }
        return row as InsertObject<Database, 'calls'>;
      });
      return db.kysely
        .insertInto('calls')
        .values(values)
        .onConflict((oc) => oc.columns(['project_id', 'id']).doUpdateSet(set));
    });
    statements.set(key, run);
  }
  return run;
}
