// POST /feedback/payload_schema: the leaf paths of a project's feedback payloads and the kind of
// value each holds, as Weave's feedback_payload_schema.py finds them: one payload per distinct
// trigger_ref (its newest; feedback without a trigger_ref shares one), the most recent first, at
// most sample_limit of them, walked in JavaScript. Weft also stops at MAX_SAMPLE_BYTES of payload
// JSON (chosen by the database with a running total), so one request parses a bounded amount.
import type * as T from '@weft/types';
import { sql } from 'kysely';
import { jsonByteLength, readJson, type Db } from '../db/index.ts';
import { feedbackWindowCondition } from './feedback-stats.ts';
import { JSON_PATH_PATTERN, resolveSampleLimit, resolveWindow, type ValueType } from './feedback-stats-request.ts';

/** Payload JSON read per request, at most (a payload is at most 1 MiB, so at least one fits). */
export const MAX_SAMPLE_BYTES = 4 * 1024 * 1024;

type Kind = 'null' | 'boolean' | 'number' | 'string';
type Paths = Map<string, Set<Kind>>;

function kindOf(v: unknown): Kind {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'number') return 'number';
  return 'string';
}

const isContainer = (v: unknown): v is object => typeof v === 'object' && v !== null;

function add(out: Paths, path: string, kind: Kind): void {
  const kinds = out.get(path) ?? new Set<Kind>();
  kinds.add(kind);
  out.set(path, kinds);
}

/**
 * Weave's _discover_paths: leaf path → kinds seen. Keys with a '.' or only blanks are skipped;
 * array elements that are containers get `[i]` paths (dropped later), scalar elements count for
 * the array's own path. A nested walk's result replaces an entry of the same path, as Python's
 * dict.update does.
 */
function discoverPaths(value: unknown, prefix: string, out: Paths = new Map()): Paths {
  if (value === null) return out;
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      if (isContainer(v)) for (const [p, kinds] of discoverPaths(v, `${prefix}[${i}]`)) out.set(p, kinds);
      else add(out, prefix, kindOf(v));
    });
    return out;
  }
  if (isContainer(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (k.includes('.') || k.trim() === '') continue;
      const path = prefix ? `${prefix}.${k}` : k;
      if (isContainer(v)) for (const [p, kinds] of discoverPaths(v, path)) out.set(p, kinds);
      else add(out, path, kindOf(v));
    }
    return out;
  }
  add(out, prefix, kindOf(value));
  return out;
}

/** Weave's _infer_value_type. */
function inferValueType(kinds: Set<Kind>): ValueType {
  const only = (allowed: Kind[]) => [...kinds].every((k) => allowed.includes(k));
  if (kinds.size === 0) return 'numeric';
  if (only(['boolean', 'null'])) return 'boolean';
  if (only(['number', 'null'])) return 'numeric';
  return 'categorical';
}

export async function feedbackPayloadSchema(db: Db, req: T.FeedbackPayloadSchemaReq): Promise<T.FeedbackPayloadSchemaRes> {
  const window = resolveWindow(req);
  const limit = resolveSampleLimit(req);
  const newestFirst = sql`order by s.created_at desc, s.id desc`;
  const query = sql<{ payload: unknown }>`select s.payload as payload from (
      select n.payload, n.created_at, n.id,
        sum(${jsonByteLength(db.dialect, sql.ref('n.payload'))}) over (order by n.created_at desc, n.id desc) as running
      from (
        select f.payload, f.created_at, f.id,
          row_number() over (partition by f.trigger_ref order by f.created_at desc, f.id desc) as rn
        from feedback as f where ${feedbackWindowCondition(db, req.project_id, window)}
      ) as n where n.rn = 1
    ) as s where s.running <= ${MAX_SAMPLE_BYTES} ${newestFirst} limit ${limit}`;
  const rows = await db.readLong<{ payload: unknown }>(query.compile(db.kysely));

  const found: Paths = new Map();
  for (const row of rows) {
    for (const [path, kinds] of discoverPaths(readJson(db, row.payload), '')) {
      // Paths through lists, and keys Weave's feedback/stats could not name, are left out.
      if (path.includes('[') || !JSON_PATH_PATTERN.test(path)) continue;
      const all = found.get(path) ?? new Set<Kind>();
      for (const k of kinds) all.add(k);
      found.set(path, all);
    }
  }
  const paths = [...found.keys()].sort().map((json_path) => ({ json_path, value_type: inferValueType(found.get(json_path)!) }));
  return { paths };
}
