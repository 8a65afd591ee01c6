// How one row moves between databases and through an export's JSON Lines.
//
// JSON cells travel as JSON text and are never turned into JS values on the way, nor rebuilt from
// one: JSON.parse would make `1.0` the number 1 (Weave hashes the two differently, so a moved
// object would no longer match its digest), and writing a parsed value out again would choose the
// keys' order. What SQLite keeps as sent (every JSON column) and PostgreSQL keeps as written (json:
// the table rows) arrives with its keys in the order sent. PostgreSQL gives its jsonb and json as
// text (`cast(… as text)`), SQLite stores text; the writer binds the text with jsonText
// (jsonTextAsWritten for a json_text column). jsonb's text has a blank after each ',' and ':',
// which SQLite would keep: a SQLite target gets jsonb-kind cells without blanks between tokens
// (json-text.ts), as its store writes JSON. Blobs are Buffers in both drivers.
//
// A line of `<table>.jsonl` is one JSON object: each column by name, JSON cells spliced in as
// JSON (so `jq .val` reads them), blobs as base64, and SQL NULL as an absent key, which keeps a
// JSON `null` (a value) apart from SQL NULL (no value). A line is checked whole by the lossless
// parser, and each JSON cell is read back as the text it is in the line.
import { createHash } from 'node:crypto';
import { JsonNumber, JsonText, parseLossless, type JsonNode, type JsonObject } from '@weft/core';
import type { AliasedRawBuilder } from 'kysely';
import type { Dialect } from '../db/db.ts';
import { jsonText, jsonTextAsWritten } from '../db/dialect-helpers.ts';
import { jsonColumnAsText, jsonColumnKeepsBoundText } from '../db/dialect-json-text.ts';
import type { ColumnKind } from '../db/migrations/create-table.ts';
import { memberTexts, minifyJson } from './json-text.ts';
import { postgresSpeltDigest } from './postgres-number.ts';
import type { TransferTable } from './transfer-tables.ts';

/** JSON cells move as text whichever way their column keeps them (jsonb, or json as written). */
const isJson = (kind: ColumnKind): boolean => kind === 'json' || kind === 'json_text';

/** A row in transit: JSON cells as JSON text, blobs as Buffers, SQL NULL as null. */
export type RawRow = Record<string, unknown>;

/** An operator-facing failure of a transfer: its message says what to do, no stack needed. */
export class TransferError extends Error {
  override name = 'TransferError';
}

/** The select list reading `table`'s rows as RawRows. */
export function selectList(dialect: Dialect, table: TransferTable): (string | AliasedRawBuilder<unknown, string>)[] {
  return Object.entries(table.columns).map(([column, kind]) => (isJson(kind) ? jsonColumnAsText(dialect, column) : column));
}

/** A RawRow as insert values for `dialect`; columns the row lacks (an older export) are left out. */
export function insertValues(dialect: Dialect, table: TransferTable, row: RawRow): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [column, kind] of Object.entries(table.columns)) {
    if (!(column in row)) continue;
    const value = row[column];
    if (value === null || !isJson(kind)) values[column] = value;
    else if (kind === 'json_text') values[column] = jsonTextAsWritten(dialect, value as string);
    // PostgreSQL's jsonb drops blanks itself.
    else values[column] = jsonText(dialect, jsonColumnKeepsBoundText(dialect) ? minifyJson(value as string) : (value as string));
  }
  return values;
}

/** About how many bytes a row holds in memory, to bound a batch. */
export function rowBytes(row: RawRow): number {
  let n = 16;
  for (const value of Object.values(row)) {
    if (typeof value === 'string') n += value.length;
    else if (Buffer.isBuffer(value)) n += value.byteLength;
    else n += 8;
  }
  return n;
}

const HASH_MODULUS = 1n << 128n;

/**
 * The row's contribution to a table checksum: 128 bits of a SHA-256 over the row normalised so
 * that both databases give the same value: each JSON cell by its Weave digest (keys sorted, so
 * jsonb's key order does not matter; `1.0` and `1` differ, as in Weave) with its numbers spelt
 * as PostgreSQL spells them (`1e-05` as `0.00001`: postgres-number.ts), blobs as base64.
 * Checksums add modulo 2^128, so they compare without an agreed row order. `jsonDigests`, when
 * given, receives the JSON cells' digests (the content digests of objects and rows).
 */
export function rowHash(table: TransferTable, row: RawRow, jsonDigests?: Record<string, string>): bigint {
  const normal: unknown[] = [];
  for (const [column, kind] of Object.entries(table.columns)) {
    const value = row[column] ?? null;
    if (value === null) normal.push(null);
    else if (isJson(kind)) {
      const digest = postgresSpeltDigest(value as string);
      if (jsonDigests) jsonDigests[column] = digest;
      normal.push(digest);
    } else if (kind === 'blob') normal.push((value as Buffer).toString('base64'));
    else normal.push(value);
  }
  const digest = createHash('sha256').update(JSON.stringify(normal)).digest();
  return digest.readBigUInt64BE(0) * (1n << 64n) + digest.readBigUInt64BE(8);
}

export function addHash(sum: bigint, hash: bigint): bigint {
  return (sum + hash) % HASH_MODULUS;
}

export const checksumHex = (sum: bigint): string => sum.toString(16).padStart(32, '0');

// Raw line breaks in JSON text can only be blanks between tokens (strings escape them).
const LINE_BREAKS = /[\r\n]+/g;

/** One line of `<table>.jsonl`, without its newline. */
export function encodeLine(table: TransferTable, row: RawRow): string {
  let out = '{';
  for (const [column, kind] of Object.entries(table.columns)) {
    const value = row[column] ?? null;
    if (value === null) continue;
    let cell: string;
    if (isJson(kind)) {
      cell = value as string;
      if (cell.includes('\n') || cell.includes('\r')) cell = cell.replace(LINE_BREAKS, ' ');
    } else if (kind === 'blob') cell = `"${(value as Buffer).toString('base64')}"`;
    else cell = JSON.stringify(value);
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(column)}:${cell}`;
  }
  return `${out}}`;
}

/** A line of `<table>.jsonl` back into a RawRow; throws a TransferError naming what is wrong. */
export function decodeLine(table: TransferTable, line: string): RawRow {
  let node: JsonNode;
  try {
    node = parseLossless(line);
  } catch (err) {
    throw new TransferError(`not JSON: ${(err as Error).message}`);
  }
  if (node === null || typeof node !== 'object' || Array.isArray(node) || node instanceof JsonNumber || node instanceof JsonText) {
    throw new TransferError('not a JSON object');
  }
  const cells: JsonObject = node;
  for (const column of Object.keys(cells)) {
    if (!Object.hasOwn(table.columns, column)) throw new TransferError(`unknown column "${column}"`);
  }
  let texts: Map<string, string> | undefined;
  const row: RawRow = {};
  for (const [column, kind] of Object.entries(table.columns)) {
    // Absent: SQL NULL (also a column an older export did not have yet).
    if (!Object.hasOwn(cells, column)) {
      row[column] = null;
      continue;
    }
    const cell = cells[column] as JsonNode;
    // A JSON cell: its text as it is in the line (the parse above has checked it).
    row[column] = isJson(kind) ? (texts ??= memberTexts(line)).get(column) : decodeScalar(column, kind, cell);
  }
  return row;
}

function decodeScalar(column: string, kind: string, cell: JsonNode): unknown {
  if (cell === null) return null;
  if ((kind === 'int' || kind === 'double') && cell instanceof JsonNumber) return cell.toNumber();
  if (kind === 'text' && typeof cell === 'string') return cell;
  if (kind === 'blob' && typeof cell === 'string') return Buffer.from(cell, 'base64');
  throw new TransferError(`column "${column}" holds a ${cell instanceof JsonNumber ? 'number' : typeof cell}, expected ${kind}`);
}
