// feedback/query: a project's live feedback as Weave answers it — rows of `tsi.Feedback` (which
// the Python SDK builds with extra="forbid", so a row holds exactly Weave's keys, the user as
// `wb_user_id`), filtered by Weave's query language over feedback fields, sorted, paged, counted.
import type * as T from '@weft/types';
import { sql, type ExpressionBuilder } from 'kysely';
import { readJson, type Database, type Db } from '../db/index.ts';
import { applyPaging, checkPaging, readPaged } from '../db/paging.ts';
import { jsonPathField, queryFail, textColumn, timeColumn, weaveQueryCondition, type Value } from '../query/weave-query.ts';

/** Weave's field name → column (the calls query's feedback fields use it too). */
export const TEXT_COLUMNS: Record<string, string> = {
  id: 'id',
  weave_ref: 'weave_ref',
  feedback_type: 'feedback_type',
  creator: 'creator',
  wb_user_id: 'svc_user_id',
  annotation_ref: 'annotation_ref',
  runnable_ref: 'runnable_ref',
  call_ref: 'call_ref',
  trigger_ref: 'trigger_ref',
  queue_id: 'queue_id',
};

function feedbackField(db: Db, name: string): Value {
  if (name === 'created_at') return timeColumn('feedback.created_at');
  const column = TEXT_COLUMNS[name];
  if (column) return textColumn(`feedback.${column}`);
  const [root = '', ...path] = name.split('.');
  if (root !== 'payload' || path.length === 0 || path.some((p) => p === '')) queryFail(`unknown field ${JSON.stringify(name)}`);
  return jsonPathField(db, 'feedback.payload', path);
}

type Eb = ExpressionBuilder<Database, 'feedback'>;

export async function feedbackQuery(db: Db, req: T.FeedbackQueryReq): Promise<T.FeedbackQueryRes> {
  const paging = checkPaging(req.limit, req.offset);
  const condition = weaveQueryCondition(
    db,
    req.query,
    (name) => feedbackField(db, name),
    (c) => void db.kysely.selectFrom('feedback').select('id').where(c).compile(),
  );
  const live = (eb: Eb) =>
    eb.and([eb('feedback.project_id', '=', req.project_id), eb('feedback.deleted_at', 'is', null), ...(condition ? [condition(eb)] : [])]);

  let query = db.kysely.selectFrom('feedback').selectAll().where(live);
  const sorts = req.sort_by?.length ? req.sort_by : [{ field: 'created_at' as const, direction: 'asc' as const }];
  // Rows without the value (creator, refs) last in either direction, as cost/query and calls
  // sort: the two databases' own defaults disagree.
  for (const { field, direction } of sorts) {
    query = query.orderBy(sql.ref(`feedback.${TEXT_COLUMNS[field] ?? field}`), (ob) =>
      (direction === 'desc' ? ob.desc() : ob.asc()).nullsLast(),
    );
  }
  // id is unique in a project: rows written in the same millisecond keep one order, page after page.
  if (!sorts.some((s) => s.field === 'id')) query = query.orderBy('feedback.id', 'asc');
  const rows = await readPaged(db, applyPaging(query, paging), paging);
  const counted = await db.kysely
    .selectFrom('feedback')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where(live)
    .executeTakeFirstOrThrow();

  const wanted = req.fields?.length ? new Set<string>(req.fields) : undefined;
  const result = rows.map((r) => {
    const row: Record<string, unknown> = {
      id: r.id,
      project_id: r.project_id,
      weave_ref: r.weave_ref,
      wb_user_id: r.svc_user_id,
      creator: r.creator,
      created_at: r.created_at,
      feedback_type: r.feedback_type,
      payload: readJson(db, r.payload),
      annotation_ref: r.annotation_ref,
      runnable_ref: r.runnable_ref,
      call_ref: r.call_ref,
      trigger_ref: r.trigger_ref,
      // Only feedback written from a queue has the key: rows outside queues keep the older shape.
      ...(r.queue_id !== null && { queue_id: r.queue_id }),
    };
    if (wanted) for (const key of Object.keys(row)) if (!wanted.has(key)) delete row[key];
    return row;
  });
  return { result, total_count: Number(counted.n) };
}
