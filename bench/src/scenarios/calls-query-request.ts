// Scenario 11's request, as the Weave Python SDK sends it for
//   client.get_calls(filter={"op_names": [op.ref.uri()]}, query=…, sort_by=[started_at desc], limit=100)
// (what `op.calls()` sends for the filter: the op's own ref): a pydantic dump of CallsQueryReq,
// every field present, unset ones null. The time range goes through `$expr` as Weave's query
// language has it: `$gte` for the start, and `$not` of `$gte` for the end (there is no `$lt`),
// times as Unix seconds, as Weave's UI sends them.
import type * as T from '@weft/types';
import { CALL_PROJECTS, opRef, SPAN_MS, SPAN_START_MS, type CallProject } from '../seed/calls-spec.ts';

/** A root op of about 7% of the calls: the traces of one entry point of an app. */
export const QUERY_OP = 'answer_question';
/** Day 10 to day 25 of the seed's 30 days: about half of every project. */
export const RANGE = {
  from: (SPAN_START_MS + (SPAN_MS / 30) * 10) / 1000,
  to: (SPAN_START_MS + (SPAN_MS / 30) * 25) / 1000,
};

const NULL_FILTER = {
  op_names: null,
  input_refs: null,
  output_refs: null,
  parent_ids: null,
  trace_ids: null,
  call_ids: null,
  thread_ids: null,
  turn_ids: null,
  trace_roots_only: null,
  wb_user_ids: null,
  wb_run_ids: null,
};

const startedAt = { $getField: 'started_at' };

export function callsQueryRequest(project: CallProject) {
  const filter = { ...NULL_FILTER, op_names: [opRef(project, QUERY_OP)] };
  const query = {
    $expr: {
      $and: [{ $gte: [startedAt, { $literal: RANGE.from }] }, { $not: [{ $gte: [startedAt, { $literal: RANGE.to }] }] }],
    },
  };
  return {
    project_id: CALL_PROJECTS[project],
    filter,
    limit: 100,
    offset: 0,
    sort_by: [{ field: 'started_at', direction: 'desc' }],
    query,
    include_costs: false,
    include_feedback: false,
    include_storage_size: false,
    include_total_storage_size: false,
    columns: null,
    expand_columns: null,
    return_expanded_column_values: true,
  } as const;
}

/** The count the SDK asks for alongside (`len(calls)`): calls/query_stats with the same filter and query. */
export function callsQueryStatsRequest(project: CallProject) {
  const { project_id, filter, query } = callsQueryRequest(project);
  return { project_id, filter, query, limit: null, include_total_storage_size: false, expand_columns: null };
}

/** Fails loudly unless a JSON Lines answer is 100 calls of the op, in the range, newest first. */
export function checkAnswer(project: CallProject, body: string): void {
  const calls = body
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T.CallSchema);
  const ref = opRef(project, QUERY_OP);
  const [from, to] = [new Date(RANGE.from * 1000).toISOString(), new Date(RANGE.to * 1000).toISOString()];
  const wrong = calls.filter(
    (c, i) => c.op_name !== ref || c.started_at < from || c.started_at >= to || (i > 0 && calls[i - 1]!.started_at < c.started_at),
  );
  if (calls.length !== 100 || wrong.length > 0) {
    throw new Error(
      `calls/stream_query on ${project}: ${calls.length} calls, ${wrong.length} of the wrong op, outside the range or out of order`,
    );
  }
}
