// limit/offset of every query operation, in one place: the checks (the spec already requires
// integers >= 0; this guards direct store users too) and SQLite's rule that OFFSET needs a LIMIT.
// No default limit: the TS SDK reads whole tables.
import { invalidRequest } from '@weft/core';
import type { CompiledQuery } from 'kysely';
import type { Db } from './db.ts';

export interface Paging {
  /** undefined: no limit. */
  limit: number | undefined;
  offset: number;
}

export function checkPaging(limit: number | null | undefined, offset: number | null | undefined): Paging {
  for (const [name, value] of [
    ['limit', limit],
    ['offset', offset],
  ] as const) {
    if (value != null && !(Number.isSafeInteger(value) && value >= 0)) {
      throw invalidRequest(`${name} must be an integer >= 0, got ${String(value)}`);
    }
  }
  return { limit: limit ?? undefined, offset: offset ?? 0 };
}

/** The limit/offset part of a query builder (Kysely's select builders all have these two). */
interface Pageable<Q> {
  limit(limit: number): Q;
  offset(offset: number): Q;
}

/**
 * Applies a page to a query. SQLite has no OFFSET without LIMIT, so an offset alone gets a limit
 * no table reaches, in both databases (one query text for both).
 */
export function applyPaging<Q extends Pageable<Q>>(query: Q, { limit, offset }: Paging): Q {
  let q = query;
  if (limit !== undefined) q = q.limit(limit);
  if (offset > 0) q = (limit === undefined ? q.limit(Number.MAX_SAFE_INTEGER) : q).offset(offset);
  return q;
}

/**
 * The rows of a paged query. Without a limit they can be a whole project or table: on SQLite
 * they are then read off the main thread (db.readLong), so the scan holds no other request.
 */
export function readPaged<R>(db: Db, query: { compile(): CompiledQuery<R>; execute(): Promise<R[]> }, { limit }: Paging): Promise<R[]> {
  return limit === undefined ? db.readLong<R>(query.compile()) : query.execute();
}
