// The ways a request names one version of an object: a content digest, `latest`, or `v<N>`.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../db/index.ts';

export type VersionRef =
  | { kind: 'latest' }
  | { kind: 'index'; index: number }
  /** An index no row can have (beyond the integer column's range). */
  | { kind: 'none' }
  | { kind: 'digest'; digest: string };

const MAX_INT4 = 2_147_483_647;

export function parseVersionRef(ref: string): VersionRef {
  if (ref === 'latest') return { kind: 'latest' };
  // Weave: `v` followed by digits (leading zeros allowed) is a version index, never a digest —
  // content digests are 43 characters of base64url, hex for tables.
  const m = /^v([0-9]+)$/.exec(ref);
  if (m) {
    const index = Number(m[1]);
    return index <= MAX_INT4 ? { kind: 'index', index } : { kind: 'none' };
  }
  return { kind: 'digest', digest: ref };
}

/**
 * Whether a string has the shape of a content digest, which obj/read never takes for an alias
 * (Weave's digest_is_content_hash): 43 letters and digits (an object's digest) or 64 hex digits
 * (a table's).
 */
export function isContentDigest(ref: string): boolean {
  return /^[A-Za-z0-9]{43}$/.test(ref) || /^[0-9a-fA-F]{64}$/.test(ref);
}

/**
 * The WHERE condition selecting that version among one object's rows (live or deleted: the caller
 * decides). `latest` means the live latest one. `is_latest = 1` is literal SQL, so the databases
 * can match the partial index on it.
 */
export function versionCondition(eb: ExpressionBuilder<Database, 'objects'>, ref: VersionRef): Expression<SqlBool> {
  switch (ref.kind) {
    case 'latest':
      return eb.and([eb('is_latest', '=', sql.lit(1)), eb('deleted_at', 'is', null)]);
    case 'index':
      return eb('version_index', '=', ref.index);
    case 'none':
      return sql<SqlBool>`1 = 0`;
    case 'digest':
      return eb('digest', '=', ref.digest);
  }
}
