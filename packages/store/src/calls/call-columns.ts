// `columns`, `expand_columns` and `return_expanded_column_values` of calls/stream_query and
// calls/query, as Weave answers them. `columns` narrows each call to the named fields (a dot path
// such as `inputs.question` keeps only that part of its root); the fields the SDK's CallSchema
// requires are always there (`attributes` and `inputs` as `{}` when not asked for). A column of
// `expand_columns` whose value is a ref of the project is replaced by the value it points at
// (refs/read_batch's rules, the projects the caller may read included; a ref that does not
// resolve, or leads into a project the caller may not read, is left as it is), unless
// `return_expanded_column_values` is false, when the refs are answered as stored.
import { invalidField, invalidRequest, type Catalogue } from '@weft/core';
import type * as T from '@weft/types';
import type { Db } from '../db/index.ts';
import { readRef } from '../refs/refs-read-batch.ts';
import type { ReadingContext } from '../store.ts';

const FIELDS = new Set([
  'id',
  'project_id',
  'op_name',
  'display_name',
  'trace_id',
  'parent_id',
  'thread_id',
  'turn_id',
  'started_at',
  'ended_at',
  'attributes',
  'inputs',
  'output',
  'exception',
  'summary',
  'svc_user_id',
  'svc_username',
  'svc_run_id',
  'svc_run_step',
  'svc_run_step_end',
  'deleted_at',
  'expire_at',
  'storage_size_bytes',
  'total_storage_size_bytes',
]);
const JSON_ROOTS = new Set(['inputs', 'output', 'attributes', 'summary']);
/** Weave's names of the same columns. */
const WEAVE_NAMES: Record<string, string> = {
  wb_user_id: 'svc_user_id',
  wb_run_id: 'svc_run_id',
  wb_run_step: 'svc_run_step',
  wb_run_step_end: 'svc_run_step_end',
};
const ALWAYS = ['id', 'project_id', 'op_name', 'trace_id', 'started_at'] as const;
const MAX_PATHS = 100;

type Path = [root: string, ...rest: string[]];
type Call = Record<string, unknown>;

function parsePath(column: string, where: string): Path {
  const [first = '', ...rest] = column.split('.');
  const root = WEAVE_NAMES[first] ?? first;
  if (!FIELDS.has(root) || rest.some((p) => p === '')) throw invalidRequest(`${where}: unknown column ${JSON.stringify(column)}`);
  if (rest.length > 0 && !JSON_ROOTS.has(root)) throw invalidRequest(`${where}: ${root} has no fields (${JSON.stringify(column)})`);
  return [root, ...rest];
}

function get(value: unknown, path: readonly string[]): unknown {
  let v = value;
  for (const key of path) {
    if (v === null || typeof v !== 'object' || Array.isArray(v) || !Object.hasOwn(v, key)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

function put(target: Call, path: readonly string[], value: unknown): void {
  let at = target;
  for (const key of path.slice(0, -1)) {
    const next = at[key];
    at = at[key] = next !== null && typeof next === 'object' && !Array.isArray(next) ? { ...(next as Call) } : {};
  }
  at[path[path.length - 1]!] = value;
}

/** Shapes each streamed call as the request asks, or undefined when it asks for nothing of the kind. */
export function callShaper(
  db: Db,
  catalogue: Catalogue,
  req: T.CallsStreamQueryReq,
  ctx: ReadingContext,
): ((call: T.CallSchema) => Promise<T.CallSchema>) | undefined {
  const columns = req.columns?.length ? req.columns.map((c) => parsePath(c, 'columns')) : undefined;
  const expand = req.return_expanded_column_values === false ? [] : (req.expand_columns ?? []).map((c) => parsePath(c, 'expand_columns'));
  if ((columns?.length ?? 0) + expand.length > MAX_PATHS) throw invalidRequest(`columns and expand_columns: at most ${MAX_PATHS} paths`);
  if (!columns && expand.length === 0) return undefined;
  const prefix = `weave:///${req.project_id}/`;
  const resolved = new Map<string, Promise<unknown>>();
  const resolve = (ref: string) => {
    let value = resolved.get(ref);
    if (!value) {
      // A ref that does not resolve (deleted, never written, or another tenant's) stays a ref, as
      // Weave leaves a missing one.
      value = readRef(db, catalogue, ref, ctx).catch(() => ref);
      resolved.set(ref, value);
    }
    return value;
  };

  return async (schema) => {
    let call = schema as unknown as Call;
    for (const path of expand) {
      const value = get(call, path);
      if (typeof value !== 'string' || !value.startsWith(prefix) || value.slice(prefix.length).startsWith('table/')) continue;
      call = { ...call };
      put(call, path, await resolve(value));
    }
    if (!columns) return call as unknown as T.CallSchema;
    const out: Call = { attributes: {}, inputs: {} };
    for (const key of ALWAYS) out[key] = call[key];
    const whole = new Set(columns.filter((p) => p.length === 1).map((p) => p[0]));
    for (const root of whole) if (call[root] !== undefined) out[root] = call[root];
    for (const path of columns) {
      if (path.length === 1 || whole.has(path[0])) continue;
      const value = get(call, path);
      if (value !== undefined) put(out, path, value);
    }
    return out as unknown as T.CallSchema;
  };
}

/** Every `$getField` path of a query, at any depth. */
function queriedFields(node: unknown, out: string[]): string[] {
  if (Array.isArray(node)) for (const item of node) queriedFields(item, out);
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$getField' && typeof value === 'string') out.push(value);
      else queriedFields(value, out);
    }
  }
  return out;
}

/**
 * Weave lets a query or a sort reach through a ref named in `expand_columns` (`inputs.model.name`
 * with `expand_columns: ["inputs.model"]`): it filters on the value the ref points at. Weft
 * expands refs in the answer only, so such a filter or sort would silently compare the ref's own
 * text: it is refused instead, naming the field. A query that stays outside the expanded columns
 * is answered as usual (expanding changes no count then).
 */
export function refuseQueryThroughExpandedRefs(req: {
  query?: { $expr: unknown } | null;
  sort_by?: ReadonlyArray<{ field: string }> | null;
  expand_columns?: ReadonlyArray<string> | null;
}): void {
  const expanded = req.expand_columns ?? [];
  if (expanded.length === 0) return;
  const fields = [...queriedFields(req.query ?? null, []), ...(req.sort_by ?? []).map((s) => s.field)];
  for (const field of fields) {
    const through = expanded.find((column) => field.startsWith(`${column}.`));
    if (through !== undefined)
      throw invalidField(
        ['body', 'expand_columns'],
        `${field} reaches through the expanded ref ${through}: filtering and sorting on values behind refs is not supported`,
        'value_error',
      );
  }
}
