// calls/stream_query: the visible calls (started, not deleted) of a project that pass the filter,
// in the requested order, as the same CallSchema call/read returns.
//
// The result is read in pages of PAGE_SIZE rows, one query each, so a large result never sits in
// memory. Pages follow each other by keyset (`after the last row`) when every sort key is a
// non-null column (the default order is), and by OFFSET otherwise; an id tie-break makes the
// order total either way. Pages are separate statements: rows written while a stream is being
// read may or may not appear, and with OFFSET paging such a write can shift a page boundary.
//
// input_refs / output_refs: a call matches when its inputs (output) JSON contains the ref as a
// whole JSON string anywhere, at any depth. Weave keeps an extracted ref list per call instead;
// this is a scan of the project's calls, honest but not indexed.
import { invalidRequest, type Catalogue } from '@weft/core';
import type * as T from '@weft/types';
import { sql, type Expression, type ExpressionBuilder, type OrderByItemBuilder, type SqlBool } from 'kysely';
import { jsonPathAsNumber, jsonPathAsText, jsonPathType, readJson, textContains, type Database, type Db } from '../db/index.ts';
import { checkPaging } from '../db/paging.ts';
import { withRawTables, type RawTable } from '../db/with-raw-tables.ts';
import { notNullWithoutIndex } from '../db/dialect-planner.ts';
import { projectPrices, usageModels } from '../costs/index.ts';
import { feedbackOfCalls } from '../feedback/index.ts';
import { callsQueryCondition, latencyExpr, statusExpr } from './calls-query-fields.ts';
import { CATALOGUE_TABLE, catalogueTable, totalCostExpr, totalTokensExpr } from './call-usage-sort.ts';
import { feedbackField, isFeedbackField } from './call-feedback-fields.ts';
import type { ReadingContext } from '../store.ts';
import { callShaper, refuseQueryThroughExpandedRefs } from './call-columns.ts';
import { deriveSummary } from './derive-summary.ts';
import { callStorageSize } from './storage-size.ts';
import { isStarted, toCallSchema, type StartedRow } from './to-call-schema.ts';

export const PAGE_SIZE = 500;

type Eb = ExpressionBuilder<Database, 'calls'>;
type Direction = 'asc' | 'desc';
/** Columns that are never null on a visible call: usable for keyset paging. */
type KeysetColumn = 'started_at' | 'op_name' | 'id' | 'trace_id';
interface SortKey {
  expr: Expression<unknown>;
  direction: Direction;
  keyset?: KeysetColumn;
  /** A table the expression reads, held by the statement as a materialized WITH. */
  table?: RawTable;
}

const KEYSET_COLUMNS = new Set<string>(['started_at', 'op_name', 'id', 'trace_id']);
const JSON_ROOTS = new Set(['inputs', 'output', 'attributes', 'summary']);

/** `pageSize` is a parameter for tests; callers use the default. */
export async function* callsStreamQuery(
  db: Db,
  catalogue: Catalogue,
  req: T.CallsStreamQueryReq,
  ctx: ReadingContext,
  pageSize: number = PAGE_SIZE,
): AsyncGenerator<T.CallSchema> {
  refuseQueryThroughExpandedRefs(req);
  const keys = sortKeys(db, catalogue, req.sort_by ?? []);
  const keyset = keys.every((k) => k.keyset !== undefined);
  const filter = filterOf(db, req.project_id, req.filter ?? {});
  const condition = callsQueryCondition(db, req.query);
  const paging = checkPaging(req.limit, req.offset);
  // Built before the first page, so unknown columns are refused before any answer starts.
  const shape = callShaper(db, catalogue, req, ctx);
  let remaining = paging.limit ?? Infinity;
  let offset = paging.offset;
  let last: StartedRow | undefined;

  while (remaining > 0) {
    const size = Math.min(pageSize, remaining);
    let query = withRawTables(
      db,
      keys.flatMap((k) => (k.table ? [k.table] : [])),
    )
      .selectFrom('calls')
      .selectAll('calls')
      .$if(req.include_storage_size === true, (qb) => qb.select(callStorageSize(db).as('storage_size_bytes')))
      .where(filter)
      .$if(condition !== undefined, (q) => q.where(condition!));
    for (const key of keys) {
      // Keyset columns are never null here (see filterOf), so they keep each database's own null
      // order: PostgreSQL walks an index backward only for DESC NULLS FIRST, its default.
      const nulls = key.keyset ? (ob: OrderByItemBuilder) => ob : (ob: OrderByItemBuilder) => ob.nullsLast();
      query = query.orderBy(key.expr, (ob) => nulls(key.direction === 'asc' ? ob.asc() : ob.desc()));
    }
    const after = last;
    query = keyset && after ? query.where((eb) => afterRow(eb, keys, after)) : query.offset(offset);
    const page = await query.limit(size).execute();
    // The WHERE clause already keeps started calls only; this narrows the row type.
    const rows = page.filter(isStarted);

    const feedback =
      req.include_feedback === true
        ? await feedbackOfCalls(
            db,
            req.project_id,
            rows.map((r) => r.id),
          )
        : undefined;
    const traceSizes = req.include_total_storage_size === true ? await rootTraceSizes(db, req.project_id, rows) : undefined;
    const summaries = rows.map((row) => readJson(db, row.summary));
    // The project's prices of the models this page used, read once for the page.
    const costs =
      req.include_costs === true
        ? { catalogue, prices: await projectPrices(db, req.project_id, summaries.flatMap(usageModels)) }
        : undefined;
    for (const [i, row] of rows.entries()) {
      const summary = deriveSummary({ ...row, summary: summaries[i] }, costs);
      if (feedback) (summary.weave as Record<string, unknown>).feedback = feedback.get(row.id) ?? [];
      const call = toCallSchema(db, row, summary);
      if (req.include_storage_size === true) call.storage_size_bytes = Number(row.storage_size_bytes ?? 0);
      if (traceSizes && row.parent_id === null) call.total_storage_size_bytes = traceSizes.get(row.trace_id) ?? 0;
      yield shape ? await shape(call) : call;
    }
    if (page.length < size) return;
    remaining -= page.length;
    offset += page.length;
    last = rows[rows.length - 1];
  }
}

// ---------------------------------------------------------------------------------------------
// Filter

export function filterOf(db: Db, projectId: string, f: T.CallsFilter): (eb: Eb) => Expression<SqlBool> {
  const list = (values: string[] | null | undefined) => (values && values.length > 0 ? values : undefined);
  return (eb) => {
    const conds: Expression<SqlBool>[] = [
      eb('calls.project_id', '=', projectId),
      startedCondition(db),
      presentCondition(db, 'op_name'),
      presentCondition(db, 'trace_id'),
      eb('calls.deleted_at', 'is', null),
    ];
    const inList = (
      column: 'id' | 'parent_id' | 'trace_id' | 'thread_id' | 'turn_id' | 'svc_user_id' | 'svc_run_id',
      values?: string[],
    ) => {
      if (values) conds.push(eb(`calls.${column}`, 'in', values));
    };
    inList('id', list(f.call_ids));
    inList('parent_id', list(f.parent_ids));
    inList('trace_id', list(f.trace_ids));
    inList('thread_id', list(f.thread_ids));
    inList('turn_id', list(f.turn_ids));
    inList('svc_user_id', list(f.svc_user_ids));
    inList('svc_run_id', list(f.svc_run_ids));
    // Weave's names for the same two conditions.
    inList('svc_user_id', list(f.wb_user_ids));
    inList('svc_run_id', list(f.wb_run_ids));
    if (f.trace_roots_only === true) conds.push(eb('calls.parent_id', 'is', null));

    const opNames = list(f.op_names);
    if (opNames) {
      // `…/op/name:*` is every version: the op_name starts with `…/op/name:`.
      const exact = opNames.filter((n) => !n.endsWith(':*'));
      const prefixes = opNames.filter((n) => n.endsWith(':*')).map((n) => n.slice(0, -1));
      const alternatives: Expression<SqlBool>[] = prefixes.map(
        (p) => sql<SqlBool>`(substr(${sql.ref('calls.op_name')}, 1, ${[...p].length}) = ${p})`,
      );
      if (exact.length > 0) alternatives.push(eb('calls.op_name', 'in', exact));
      conds.push(eb.or(alternatives));
    }
    for (const [column, refs] of [
      ['inputs', list(f.input_refs)],
      ['output', list(f.output_refs)],
    ] as const) {
      if (!refs) continue;
      const text = sql`cast(${sql.ref(`calls.${column}`)} as text)`;
      // The ref as a complete JSON string (quotes included), so a longer ref does not match.
      conds.push(eb.or(refs.map((ref) => textContains(db, text, JSON.stringify(ref)))));
    }
    return eb.and(conds);
  };
}

/**
 * The call has started. Not as a test the planner may use as an index range: SQLite's would read
 * it as `started_at > NULL` and may start an ascending range read there instead of at the
 * query's own `started_at >= …` (a page from the project's first call on).
 */
function startedCondition(db: Db): Expression<SqlBool> {
  return notNullWithoutIndex(db, 'calls.started_at');
}

/**
 * The column is set, kept off the index as startedCondition is: as a range `> NULL` SQLite would
 * read the project's whole calls_trace_idx (or calls_op_started_idx) instead of looking up the
 * query's own list of trace ids.
 */
function presentCondition(db: Db, column: 'op_name' | 'trace_id'): Expression<SqlBool> {
  return notNullWithoutIndex(db, `calls.${column}`);
}

// ---------------------------------------------------------------------------------------------
// Order

function sortKeys(db: Db, catalogue: Catalogue, items: readonly T.CallsSortItem[]): SortKey[] {
  const keys: SortKey[] = [];
  for (const item of items) {
    const direction = item.direction;
    if (direction !== 'asc' && direction !== 'desc') throw invalidRequest(`Invalid sort direction: ${String(direction)}`);
    keys.push(...keysOf(db, catalogue, item.field, direction));
  }
  if (keys.length === 0) keys.push(...keysOf(db, catalogue, 'started_at', 'asc'));
  // id is unique within a project: the order becomes total, so pages neither repeat nor skip.
  if (!keys.some((k) => k.keyset === 'id')) keys.push(...keysOf(db, catalogue, 'id', 'asc'));
  return keys;
}

function keysOf(db: Db, catalogue: Catalogue, field: string, direction: Direction): SortKey[] {
  if (KEYSET_COLUMNS.has(field)) {
    return [{ expr: sql.ref(`calls.${field}`), direction, keyset: field as KeysetColumn }];
  }
  if (field === 'ended_at') return [{ expr: sql.ref('calls.ended_at'), direction }];
  // Weave's two derived fields its query builder sorts by; a running call has no latency (last).
  if (field === 'summary.weave.latency_ms') return [{ expr: latencyExpr(db), direction }];
  if (field === 'summary.weave.status') return [{ expr: statusExpr(db), direction }];
  // Weft's two over the call's own usage (call-usage-sort.ts); no usage or no price sorts last.
  if (field === 'summary.weave.total_tokens') return [{ expr: totalTokensExpr(db), direction }];
  if (field === 'summary.weave.total_cost') {
    return [{ expr: totalCostExpr(db), direction, table: { name: CATALOGUE_TABLE, select: catalogueTable(db, catalogue) } }];
  }
  if (isFeedbackField(field)) {
    const refuse = (): never => {
      throw invalidRequest(
        `Invalid sort field ${JSON.stringify(field)}: not a feedback field (feedback.[<type>].payload.<path> or a column)`,
      );
    };
    const { missing, values } = feedbackField(db, field, refuse).sortKeys;
    return [{ expr: sql`(case when ${missing} then 1 else 0 end)`, direction: 'asc' }, ...values.map((expr) => ({ expr, direction }))];
  }

  const [root = '', ...path] = field.split('.');
  if (!JSON_ROOTS.has(root)) {
    throw invalidRequest(
      `Invalid sort field ${JSON.stringify(field)}: use started_at, ended_at, op_name, id, trace_id, summary.weave.latency_ms, summary.weave.status, summary.weave.total_tokens, summary.weave.total_cost, a dot path into inputs, output, attributes or summary, or feedback.[<type>].<field>`,
    );
  }
  if (path.length === 0 || path.some((part) => part.trim() === '')) {
    throw invalidRequest(`Invalid sort field ${JSON.stringify(field)}: empty path component`);
  }
  if (root === 'summary' && path[0] === 'weave') {
    throw invalidRequest(
      `Invalid sort field ${JSON.stringify(field)}: of summary.weave, only status, latency_ms, total_tokens and total_cost are derived in the database and can be sorted on`,
    );
  }
  const column = `calls.${root}`;
  const type = jsonPathType(db, column, path);
  // Weave's order for dynamic fields: present values first (whatever the direction), then as
  // numbers (numeric strings included), then as text; missing and JSON null come last.
  return [
    { expr: sql`(case when ${type} is null or ${type} = 'null' then 1 else 0 end)`, direction: 'asc' },
    { expr: jsonPathAsNumber(db, column, path), direction },
    { expr: jsonPathAsText(db, column, path), direction },
  ];
}

/**
 * Rows strictly after `row` in the order of `keys` (all keyset columns, never null). The OR alone
 * is no index range: PostgreSQL walks the index from the project's first call, filtering, and
 * SQLite reads every later call through a MULTI-INDEX OR and sorts them all, so a page would cost
 * the stream's depth. The redundant bound on the first key (`>=`, or `<=` descending) is where both
 * planners start the index walk; only the later keys (the id tie-break) are then sorted, a group
 * of equal first keys at a time.
 */
function afterRow(eb: Eb, keys: readonly SortKey[], row: StartedRow): Expression<SqlBool> {
  const value = (key: SortKey) => row[key.keyset as KeysetColumn];
  const column = (key: SortKey) => `calls.${key.keyset as KeysetColumn}` as const;
  const alternatives: Expression<SqlBool>[] = keys.map((key, i) => {
    const equalBefore = keys.slice(0, i).map((k) => eb(column(k), '=', value(k)));
    const beyond = eb(column(key), key.direction === 'asc' ? '>' : '<', value(key));
    return eb.and([...equalBefore, beyond]);
  });
  const first = keys[0]!;
  return eb.and([eb(column(first), first.direction === 'asc' ? '>=' : '<=', value(first)), eb.or(alternatives)]);
}

// ---------------------------------------------------------------------------------------------
// include_total_storage_size

/** Storage of each root call's whole trace, one grouped query per page. */
async function rootTraceSizes(db: Db, projectId: string, rows: readonly StartedRow[]): Promise<Map<string, number>> {
  const traceIds = [...new Set(rows.filter((r) => r.parent_id === null).map((r) => r.trace_id))];
  const sizes = new Map<string, number>();
  if (traceIds.length === 0) return sizes;
  const totals = await db.kysely
    .selectFrom('calls')
    .select(['trace_id', sql<number | null>`sum(${callStorageSize(db)})`.as('total')])
    .where('project_id', '=', projectId)
    .where('trace_id', 'in', traceIds)
    .where('started_at', 'is not', null)
    .where('deleted_at', 'is', null)
    .groupBy('trace_id')
    .execute();
  for (const t of totals) if (t.trace_id !== null) sizes.set(t.trace_id, Number(t.total ?? 0));
  return sizes;
}
