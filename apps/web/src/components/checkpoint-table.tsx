// A run's model checkpoints, as ART's client registers them: step, when, and the metrics attached
// (the trainer's own and the aggregates of the logs at that step), paged by the API's cursor.
import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../session.tsx';
import { checkpointColumns } from '../checkpoint-columns.ts';
import { Pager } from './pager.tsx';
import { ErrorView, Loading } from './query-state.tsx';
import { TimeAgo } from './time-ago.tsx';

const PAGE = 20;
const format = (v: number) => (Number.isInteger(v) ? v.toLocaleString() : Number(v.toPrecision(4)).toString());

export function CheckpointTable({ modelId }: { modelId: string }) {
  const { $api } = useApi();
  // The cursors of the pages before this one: Next pushes the page's last id, Previous pops it.
  const [afters, setAfters] = useState<string[]>([]);
  const after = afters.at(-1);
  const query = $api.useQuery(
    'get',
    '/v1/preview/models/{model_id}/checkpoints',
    {
      params: { path: { model_id: modelId }, query: { limit: PAGE, ...(after ? { after } : {}) } },
    },
    { placeholderData: keepPreviousData },
  );
  const body = () => {
    if (query.isPending) return <Loading what="checkpoints" />;
    if (query.error) return <ErrorView error={query.error} />;
    const { data } = query.data;
    if (data.length === 0) return <p className="muted">No checkpoints registered yet.</p>;
    const columns = checkpointColumns(data);
    return (
      // Focusable, so a keyboard can scroll a table wider than the page (one column per metric).
      <div className="table-scroll" role="region" aria-label="Checkpoints, scrollable" tabIndex={0}>
        <table className="grid" aria-label="Checkpoints">
          <thead>
            <tr>
              <th className="num">Step</th>
              <th>Saved</th>
              {columns.map((c) => (
                <th key={c} className="num mono">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.map((c) => (
              <tr key={c.id}>
                <td className="num">{c.step}</td>
                <td>
                  <TimeAgo iso={c.created_at} />
                </td>
                {columns.map((k) => (
                  <td key={k} className="num mono">
                    {typeof c.metrics[k] === 'number' ? format(c.metrics[k]) : '—'}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  };
  const hasMore = query.data?.has_more === true && query.data.last_id !== null;
  return (
    <section aria-labelledby="checkpoints-heading" className="checkpoints">
      <h2 id="checkpoints-heading">Checkpoints</h2>
      {body()}
      {(hasMore || afters.length > 0) && (
        <Pager
          label="Checkpoint pages"
          page={afters.length}
          hasNext={hasMore}
          onPage={(p) => setAfters(p > afters.length ? [...afters, query.data!.last_id!] : afters.slice(0, p))}
        >
          Page {afters.length + 1}
        </Pager>
      )}
    </section>
  );
}
