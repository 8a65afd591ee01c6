// The few places where SQLite and PostgreSQL need different SQL. Each helper takes the dialect (or
// anything with a `dialect`, such as a Db) and returns a Kysely `sql` fragment or a value, so the
// store keeps one query-building code path for both databases. This file: writing and reading
// JSON values, text, batching and datetimes; JSON paths are in dialect-json-paths.ts, and the
// other dialect-*.ts files hold one subject each.
//
// Differences that need no helper but do need care: NULLs sort first in SQLite and last in
// PostgreSQL on ascending order, so always say nullsFirst()/nullsLast(); and SQLite's LIKE ignores
// ASCII case (use textContains). Upserts (onConflict … doNothing / doUpdateSet with `excluded`),
// RETURNING and transactions work the same through Kysely in both.
import { invalidRequest } from '@weft/core';
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import { PG_MINIFY_RE } from './dialect-json-paths.ts';
import { dialectOf, type DialectSource } from './dialect-source.ts';
import type { StoredJson, StoredJsonText } from './schema.ts';

// ---------------------------------------------------------------------------------------------
// Writing and reading JSON values

/**
 * Binds a JS value for a JSON column (JSON.stringify semantics: NaN becomes null, undefined
 * object members are dropped). Throws for undefined, functions and symbols, which have no JSON.
 */
export function jsonParam(d: DialectSource, value: unknown): RawBuilder<StoredJson> {
  return jsonText(d, jsonOf(value));
}

/** A JS value's JSON text, as jsonParam binds it; throws for undefined, functions and symbols. */
export function jsonOf(value: unknown): string {
  const text = JSON.stringify(value) as string | undefined;
  if (text === undefined) throw new TypeError(`jsonParam: a ${typeof value} has no JSON representation`);
  return text;
}

// A JSON `\u0000` escape not itself preceded by an odd number of backslashes.
const NUL_ESCAPE = /(?:^|[^\\])(?:\\\\)*\\u0000/;

/**
 * PostgreSQL's jsonb cannot hold U+0000 (nor can its json be read by ->> then); refuse it in both
 * databases so they behave alike. jsonText does it; a statement compiled once with jsonTextSql in
 * a value's place does it on each value it binds there.
 */
export function refuseNul(text: string): void {
  if (text.includes('\\u0000') && NUL_ESCAPE.test(text)) throw invalidRequest('A string contains U+0000, which cannot be stored');
}

/**
 * Binds JSON that is already text. Malformed text is rejected by the column in both databases
 * (jsonb parsing; a json_valid CHECK in SQLite). PostgreSQL's jsonb also rejects \u0000 in
 * strings and normalises the value: key order, duplicate keys and number spelling (1e2 → 100).
 */
export function jsonText(d: DialectSource, text: string): RawBuilder<StoredJson> {
  refuseNul(text);
  return jsonTextSql(d, text);
}

/** jsonText without the check of U+0000: for a value's marker in a statement compiled once (see refuseNul). */
export function jsonTextSql(d: DialectSource, text: string): RawBuilder<StoredJson> {
  return dialectOf(d) === 'postgres' ? sql<StoredJson>`cast(${text} as jsonb)` : sql<StoredJson>`${text}`;
}

/**
 * Binds JSON text for a column that keeps it as written (StoredJsonText: PostgreSQL json, whose
 * input only checks the syntax). jsonb would build its binary form, a numeric for every number:
 * most of what PostgreSQL spent on a trajectory log (BENCHMARKS.md, scenario 4). U+0000 is
 * refused as jsonText refuses it, so the databases keep agreeing.
 */
export function jsonTextAsWritten(d: DialectSource, text: string): RawBuilder<StoredJsonText> {
  refuseNul(text);
  return jsonTextAsWrittenSql(d, text);
}

/** jsonTextAsWritten without the U+0000 check: for a statement compiled once, whose runs check each value. */
export function jsonTextAsWrittenSql(d: DialectSource, text: string): RawBuilder<StoredJsonText> {
  return dialectOf(d) === 'postgres' ? sql<StoredJsonText>`cast(${text} as json)` : sql<StoredJsonText>`${text}`;
}

/** A JSON column (or jsonPathExtract result) as a JS value: pg parses jsonb, SQLite gives text. SQL NULL → null. */
export function readJson(d: DialectSource, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (dialectOf(d) === 'postgres') return value;
  if (typeof value !== 'string') throw new TypeError(`readJson: expected JSON text from SQLite, got a ${typeof value}`);
  return JSON.parse(value);
}

// ---------------------------------------------------------------------------------------------
// Text

/**
 * `needle` occurs in `haystack` (a WHERE condition; Weave's `$contains`). Not LIKE: SQLite's LIKE
 * ignores ASCII case and neither database agrees on escaping. With `caseInsensitive`, only ASCII
 * letters are folded, in both databases (SQLite's lower() knows no other).
 */
export function textContains(
  d: DialectSource,
  haystack: Expression<unknown>,
  needle: string,
  opts: { caseInsensitive?: boolean } = {},
): RawBuilder<SqlBool> {
  if (dialectOf(d) === 'postgres') {
    return opts.caseInsensitive
      ? sql<SqlBool>`(strpos(lower(${haystack} collate "C"), lower(${needle} collate "C")) > 0)`
      : sql<SqlBool>`(strpos(${haystack}, ${needle}) > 0)`;
  }
  return opts.caseInsensitive
    ? sql<SqlBool>`(instr(lower(${haystack}), lower(${needle})) > 0)`
    : sql<SqlBool>`(instr(${haystack}, ${needle}) > 0)`;
}

/**
 * `text` compared and sorted code point by code point (byte-wise in UTF-8), as JS compares ASCII
 * text: PostgreSQL under collation "C" rather than the database's; SQLite's default (BINARY) already does.
 */
export function bytewiseText(d: DialectSource, text: Expression<unknown>): Expression<unknown> {
  return dialectOf(d) === 'postgres' ? sql`(${text} collate "C")` : text;
}

// ---------------------------------------------------------------------------------------------
// Batching

/**
 * The most bound parameters one statement may carry (SQLite 32766, PostgreSQL 65535): split
 * multi-row inserts so rows × parameters-per-row stays within it.
 */
export function maxBindParameters(d: DialectSource): number {
  return dialectOf(d) === 'postgres' ? 65_535 : 32_766;
}

// ---------------------------------------------------------------------------------------------
// Datetimes: created in JS, so both databases store the same text.

/** Now, as stored: `2025-01-01T00:00:00.000Z`. */
export function nowIso(): string {
  return new Date().toISOString();
}

/**
 * A datetime in the stored form (UTC, milliseconds, fixed width). A string without an offset is
 * taken as UTC, not server-local time; sub-millisecond digits are dropped. Throws when invalid or
 * outside years 0000–9999 (the fixed width would break text order).
 */
export function toIsoDatetime(value: Date | string | number): string {
  let input = value;
  if (typeof input === 'string' && /[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(input)) input += 'Z';
  const date = input instanceof Date ? input : new Date(input);
  const iso = Number.isNaN(date.getTime()) ? '' : date.toISOString();
  if (iso.length !== 24) throw new RangeError(`Not a storable datetime: ${String(value)}`);
  return iso;
}

/**
 * `iso` (a stored datetime) plus `days` whole days, as stored; SQL NULL when `days` is NULL or
 * the result would pass year 9999 (no fixed-width form: SQLite's strftime gives NULL there, and
 * PostgreSQL is made to agree). Days of 24 hours, whatever the session's time zone.
 */
export function isoPlusDays(d: DialectSource, iso: Expression<unknown>, days: Expression<unknown>): RawBuilder<string | null> {
  if (dialectOf(d) === 'postgres') {
    const t = sql`((cast(${iso} as timestamptz) at time zone 'UTC') + ${days} * interval '1 day')`;
    return sql<string | null>`(case when ${t} < timestamp '10000-01-01' then to_char(${t}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') end)`;
  }
  return sql<string | null>`strftime('%Y-%m-%dT%H:%M:%fZ', ${iso}, '+' || ${days} || ' days')`;
}

/**
 * Byte length of a JSON column's compact text (PostgreSQL minified with PG_MINIFY_RE, so it
 * measures the text SQLite stores); 0 for SQL NULL. Known difference: jsonb respells some
 * numbers (1e2 → 100).
 */
export function jsonByteLength(d: DialectSource, column: Expression<unknown>): RawBuilder<number> {
  return dialectOf(d) === 'postgres'
    ? sql<number>`coalesce(octet_length(regexp_replace(cast(${column} as text), ${PG_MINIFY_RE}, ${'\\1\\2'}, 'g')), 0)`
    : sql<number>`coalesce(length(cast(${column} as blob)), 0)`;
}
