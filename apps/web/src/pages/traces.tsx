// The root calls of a project: newest first by default, sortable, filtered by op, thread, status
// and start time, paged with the total.
// Filters and page live in the URL, so a view can be shared and the back button works.
import { parseJsonLines } from '@weft/client';
import type { CallSchema, CallsStreamQueryReq } from '@weft/types';
import { Link, useParams, useSearchParams } from 'react-router';
import { costOf, formatCost, formatDuration, formatTime, latencyOf, opLabel, statusOf, tokensOf } from '../call-facts.ts';
import { Pager } from '../components/pager.tsx';
import { ErrorView, Loading } from '../components/query-state.tsx';
import { StatusBadge } from '../components/status-badge.tsx';
import { TraceFilters } from '../components/trace-filters.tsx';
import { tracesQuery } from '../traces-query.ts';
import { useApi } from '../session.tsx';

const PAGE = 50;
const SORTABLE = [
  ['op_name', 'Name'],
  ['started_at', 'Started'],
] as const;

export function TracesPage() {
  const { entity, project } = useParams() as { entity: string; project: string };
  const projectId = `${entity}/${project}`;
  const [params, setParams] = useSearchParams();
  const page = Math.max(0, Number(params.get('page') ?? 0) || 0);
  const sort = params.get('sort') ?? 'started_at';
  const direction = params.get('dir') === 'asc' ? 'asc' : 'desc';
  const op = params.get('op') ?? '';
  const thread = params.get('thread') ?? '';
  const status = params.get('status') ?? '';
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const conditions = tracesQuery({ status, from, to });

  const filter = { trace_roots_only: true, ...(op ? { op_names: [op] } : {}), ...(thread ? { thread_ids: [thread] } : {}) };
  const body: CallsStreamQueryReq = {
    project_id: projectId,
    filter,
    ...(conditions ? { query: conditions as CallsStreamQueryReq['query'] } : {}),
    sort_by: [{ field: sort, direction }],
    // One more than a page: whether a next page exists.
    limit: PAGE + 1,
    offset: page * PAGE,
    include_costs: true,
  };
  const { $api } = useApi();
  const query = $api.useQuery(
    'post',
    '/calls/stream_query',
    { body, parseAs: 'text' },
    { select: (text) => parseJsonLines<CallSchema>(text) },
  );
  // The total of the same filter, for "page N of M".
  const total = $api.useQuery('post', '/calls/query_stats', {
    body: { project_id: projectId, filter, ...(conditions ? { query: body.query } : {}) },
  });
  const pages = total.data ? Math.max(1, Math.ceil(total.data.count / PAGE)) : undefined;

  const update = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v === undefined || v === '') next.delete(k);
      else next.set(k, v);
    }
    setParams(next);
  };
  const sortBy = (field: string) => update({ sort: field, dir: sort === field && direction === 'desc' ? 'asc' : 'desc', page: undefined });

  return (
    <section>
      <h1>
        Traces <span className="muted">of {projectId}</span>
      </h1>
      <TraceFilters values={{ op, thread, status, from, to }} onApply={(f) => update({ ...f, page: undefined })} />
      {query.isPending ? (
        <Loading what="traces" />
      ) : query.error ? (
        <ErrorView error={query.error} />
      ) : (
        <>
          <table className="grid" aria-label="Traces">
            <thead>
              <tr>
                {SORTABLE.map(([field, label]) => (
                  <th key={field} aria-sort={sort === field ? (direction === 'asc' ? 'ascending' : 'descending') : 'none'}>
                    <button type="button" className="link" onClick={() => sortBy(field)}>
                      {label} {sort === field ? (direction === 'asc' ? '▲' : '▼') : ''}
                    </button>
                  </th>
                ))}
                <th>Status</th>
                <th>Latency</th>
                <th>Tokens</th>
                <th>Cost</th>
              </tr>
            </thead>
            <tbody>
              {query.data.slice(0, PAGE).map((call) => (
                <tr key={call.id}>
                  <td>
                    <Link to={`/${entity}/${project}/r/call/${call.id}`}>{opLabel(call)}</Link>
                  </td>
                  <td>{formatTime(call.started_at)}</td>
                  <td>
                    <StatusBadge status={statusOf(call)} />
                  </td>
                  <td className="num">{formatDuration(latencyOf(call))}</td>
                  <td className="num">{tokensOf(call) || '—'}</td>
                  <td className="num">{formatCost(costOf(call))}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {query.data.length === 0 && <p className="muted">No trace matches.</p>}
          <Pager page={page} hasNext={query.data.length > PAGE} onPage={(n) => update({ page: n > 0 ? String(n) : undefined })}>
            Page {page + 1}
            {pages !== undefined && ` of ${pages}`} · traces {page * PAGE + Math.min(1, query.data.length)}–
            {page * PAGE + Math.min(PAGE, query.data.length)}
            {total.data && ` of ${total.data.count.toLocaleString()}`}
          </Pager>
        </>
      )}
    </section>
  );
}
