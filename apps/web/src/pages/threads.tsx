// A project's conversation threads (Weave's /threads/stream_query): turns, first start, last
// update and turn latency p50/p99, sorted on the server (last updated first by default), paged.
// Sort and page live in the URL.
import { parseJsonLines } from '@weft/client';
import type { ThreadSchema, ThreadsSortItem } from '@weft/types';
import { Link, useParams, useSearchParams } from 'react-router';
import { formatDuration, formatTime } from '../call-facts.ts';
import { Pager } from '../components/pager.tsx';
import { ErrorView, Loading } from '../components/query-state.tsx';
import { useApi } from '../session.tsx';

const PAGE = 50;
const COLUMNS: Array<[ThreadsSortItem['field'], string]> = [
  ['thread_id', 'Thread'],
  ['turn_count', 'Turns'],
  ['start_time', 'Started'],
  ['last_updated', 'Last updated'],
  ['p50_turn_duration_ms', 'Turn p50'],
  ['p99_turn_duration_ms', 'Turn p99'],
];

export function ThreadsPage() {
  const { entity, project } = useParams() as { entity: string; project: string };
  const projectId = `${entity}/${project}`;
  const [params, setParams] = useSearchParams();
  const page = Math.max(0, Number(params.get('page') ?? 0) || 0);
  const sort = COLUMNS.find(([f]) => f === params.get('sort'))?.[0] ?? 'last_updated';
  const direction = params.get('dir') === 'asc' ? 'asc' : 'desc';
  const { $api } = useApi();
  const threads = $api.useQuery(
    'post',
    '/threads/stream_query',
    {
      body: { project_id: projectId, sort_by: [{ field: sort, direction }], limit: PAGE + 1, offset: page * PAGE },
      parseAs: 'text',
    },
    { select: (text) => parseJsonLines<ThreadSchema>(text) },
  );
  const set = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v === undefined) next.delete(k);
      else next.set(k, v);
    }
    setParams(next);
  };
  const sortBy = (field: string) => set({ sort: field, dir: sort === field && direction === 'desc' ? 'asc' : 'desc', page: undefined });
  const shown = threads.data?.slice(0, PAGE) ?? [];
  return (
    <section>
      <h1>
        Threads <span className="muted">of {projectId}</span>
      </h1>
      {threads.isPending ? (
        <Loading what="threads" />
      ) : threads.error ? (
        <ErrorView error={threads.error} />
      ) : shown.length === 0 && page === 0 ? (
        <p className="muted">No thread in this project: calls carry a thread_id (and a turn_id) when a conversation is traced.</p>
      ) : (
        <>
          <table className="grid" aria-label="Threads">
            <thead>
              <tr>
                {COLUMNS.map(([field, label]) => (
                  <th key={field} aria-sort={sort === field ? (direction === 'asc' ? 'ascending' : 'descending') : 'none'}>
                    <button type="button" className="link" onClick={() => sortBy(field)}>
                      {label} {sort === field ? (direction === 'asc' ? '▲' : '▼') : ''}
                    </button>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {shown.map((t) => (
                <tr key={t.thread_id}>
                  <td>
                    <Link to={`/${entity}/${project}/threads/${encodeURIComponent(t.thread_id)}`}>{t.thread_id}</Link>
                  </td>
                  <td className="num">{t.turn_count.toLocaleString()}</td>
                  <td>{formatTime(t.start_time)}</td>
                  <td>{formatTime(t.last_updated)}</td>
                  <td className="num">{formatDuration(roundMs(t.p50_turn_duration_ms))}</td>
                  <td className="num">{formatDuration(roundMs(t.p99_turn_duration_ms))}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager page={page} hasNext={(threads.data?.length ?? 0) > PAGE} onPage={(n) => set({ page: n > 0 ? String(n) : undefined })}>
            Page {page + 1} · threads {page * PAGE + Math.min(1, shown.length)}–{page * PAGE + shown.length}
          </Pager>
        </>
      )}
    </section>
  );
}

const roundMs = (ms: number | null | undefined) => (ms == null ? undefined : Math.round(ms));
