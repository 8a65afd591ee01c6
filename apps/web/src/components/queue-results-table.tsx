// A queue's results page: its items in queue order (50 a page) with state, reviewer and the scores
// given from the queue, each opening its call's trace; and the whole queue exported as CSV or JSON
// Lines (queue-export.ts, queue-results.ts).
import type { AnnotationQueueSchema } from '@weft/types';
import { useState } from 'react';
import { Link } from 'react-router';
import { opLabel } from '../call-facts.ts';
import { valueText } from '../feedback-facts.ts';
import { download, queueFeedbackQuery, readQueueFeedback, readQueueItems } from '../queue-export.ts';
import { resultRows, scorerNameOf, toCsv, toJsonLines, type QueueFeedback } from '../queue-results.ts';
import { useApi } from '../session.tsx';
import { Pager } from './pager.tsx';
import { QueueScoreSummary } from './queue-score-summary.tsx';
import { ErrorView, Loading } from './query-state.tsx';

const PAGE = 50;
const STATE_LABEL = { unstarted: 'To do', in_progress: 'In progress', completed: 'Done', skipped: 'Skipped' } as const;

export function QueueResultsTable({ queue }: { queue: AnnotationQueueSchema }) {
  const { client, $api } = useApi();
  const [entity, project] = queue.project_id.split('/') as [string, string];
  const scorers = queue.scorer_refs.map(scorerNameOf);
  const [page, setPage] = useState(0);
  const items = $api.useQuery('post', '/annotation_queues/{queue_id}/items/query', {
    params: { path: { queue_id: queue.id } },
    body: { project_id: queue.project_id, include_position: true, limit: PAGE + 1, offset: page * PAGE },
  });
  const shown = items.data?.items.slice(0, PAGE) ?? [];
  const refs = shown.map((item) => `weave:///${queue.project_id}/call/${item.call_id}`);
  const feedback = $api.useQuery(
    'post',
    '/feedback/query',
    { body: { project_id: queue.project_id, query: queueFeedbackQuery(queue.id, refs), limit: 10_000 } },
    { enabled: refs.length > 0 },
  );
  const [exporting, setExporting] = useState(false);
  const [failure, setFailure] = useState<unknown>();
  const exportAs = async (format: 'csv' | 'jsonl') => {
    setExporting(true);
    setFailure(undefined);
    try {
      const [all, given] = await Promise.all([
        readQueueItems(client, queue.project_id, queue.id),
        readQueueFeedback(client, queue.project_id, queue.id),
      ]);
      const rows = resultRows(queue.project_id, all, given);
      const base = `${queue.name.replace(/[^\p{L}\p{N}_.-]+/gu, '-')}-results`;
      if (format === 'csv') download(`${base}.csv`, 'text/csv', toCsv(rows, scorers));
      else download(`${base}.jsonl`, 'application/jsonl', toJsonLines(rows));
    } catch (error) {
      setFailure(error);
    } finally {
      setExporting(false);
    }
  };

  if (items.isPending) return <Loading what="the queue's items" />;
  if (items.error) return <ErrorView error={items.error} />;
  const rows = resultRows(queue.project_id, shown, (feedback.data?.result ?? []) as QueueFeedback[]);
  return (
    <section aria-label="Results">
      <div className="row">
        <h2>Results</h2>
        <button type="button" disabled={exporting} onClick={() => void exportAs('csv')}>
          Export CSV
        </button>
        <button type="button" disabled={exporting} onClick={() => void exportAs('jsonl')}>
          Export JSON Lines
        </button>
        {exporting && <span role="status">Exporting…</span>}
      </div>
      <QueueScoreSummary queue={queue} />
      {failure !== undefined && <ErrorView error={failure} />}
      {feedback.error && <ErrorView error={feedback.error} />}
      {shown.length === 0 ? (
        <p className="muted">No call in this queue yet: select traces in the traces list and add them here.</p>
      ) : (
        <table className="grid" aria-label="Queue items">
          <thead>
            <tr>
              <th>#</th>
              <th>Call</th>
              <th>State</th>
              <th>Reviewer</th>
              {scorers.map((s) => (
                <th key={s}>{s}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={`${row.item_id}/${row.annotator}`}>
                <td className="num">{row.position ?? ''}</td>
                <td>
                  <Link to={`/${entity}/${project}/r/call/${row.call_id}`}>{opLabel({ op_name: row.call_op_name })}</Link>
                </td>
                <td data-state={row.annotation_state}>{STATE_LABEL[row.annotation_state]}</td>
                <td>{row.annotator}</td>
                {scorers.map((s) => (
                  <td key={s} className="num" data-score={s}>
                    {s in row.scores ? valueText(row.scores[s]) : ''}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager page={page} hasNext={(items.data?.items.length ?? 0) > PAGE} onPage={setPage}>
        Page {page + 1} · items {page * PAGE + Math.min(1, shown.length)}–{page * PAGE + shown.length}
      </Pager>
    </section>
  );
}
