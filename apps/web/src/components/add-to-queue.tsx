// Send calls to human review: pick one of the project's annotation queues, or create one here, and
// add the calls to it (Weave's items route, 1,000 ids a request; calls already there count as
// duplicates, as Weave answers).
import { parseJsonLines } from '@weft/client';
import type { AnnotationQueueSchema } from '@weft/types';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { READ_ONLY_NOTE, useApi, useReadOnly } from '../session.tsx';
import { NewQueueForm } from './new-queue-form.tsx';
import { ErrorView } from './query-state.tsx';

const BATCH = 1000;
const NEW = '__new__';

export interface CallSelection {
  /** How many calls, for the label. */
  count: number;
  /** Their ids (read when added: "every call matching the filter" is paged from the server then). */
  ids: () => Promise<string[]>;
}

export function AddToQueue({ projectId, selection, onClose }: { projectId: string; selection: CallSelection; onClose: () => void }) {
  const { client, $api } = useApi();
  const queryClient = useQueryClient();
  const [entity, project] = projectId.split('/') as [string, string];
  const readOnly = useReadOnly(entity);
  const queues = $api.useQuery(
    'post',
    '/annotation_queues/query',
    { body: { project_id: projectId, sort_by: [{ field: 'updated_at', direction: 'desc' }], limit: 1000 }, parseAs: 'text' },
    { select: (text) => parseJsonLines<AnnotationQueueSchema>(text) },
  );
  const [choice, setChoice] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>();
  const [result, setResult] = useState<{ queueId: string; name: string; added: number; duplicates: number }>();

  const add = async (queueId: string, name: string) => {
    setBusy(true);
    setFailure(undefined);
    try {
      const ids = await selection.ids();
      let added = 0;
      let duplicates = 0;
      for (let i = 0; i < ids.length; i += BATCH) {
        const res = await client.POST('/annotation_queues/{queue_id}/items', {
          params: { path: { queue_id: queueId } },
          body: { project_id: projectId, call_ids: ids.slice(i, i + BATCH) },
        });
        added += res.added_count;
        duplicates += res.duplicates;
      }
      setResult({ queueId, name, added, duplicates });
      await queryClient.invalidateQueries();
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };
  const what = `${selection.count.toLocaleString()} call${selection.count === 1 ? '' : 's'}`;
  const picked = queues.data?.find((q) => q.id === choice);

  return (
    <div className="panel" role="dialog" aria-label="Add to annotation queue">
      <div className="row">
        <strong>Add {what} to an annotation queue</strong>
        <button type="button" className="link" onClick={onClose}>
          Close
        </button>
      </div>
      {result ? (
        <p role="status">
          Added {result.added.toLocaleString()} to <Link to={`/${entity}/${project}/queues/${result.queueId}`}>{result.name}</Link>
          {result.duplicates > 0 && ` (${result.duplicates.toLocaleString()} already there)`}.{' '}
          <Link to={`/${entity}/${project}/queues/${result.queueId}/review`}>Start reviewing</Link>
        </p>
      ) : (
        <>
          <label>
            Queue{' '}
            <select aria-label="Queue" value={choice} onChange={(e) => setChoice(e.target.value)} disabled={busy}>
              <option value="">Choose a queue…</option>
              {queues.data?.map((q) => (
                <option key={q.id} value={q.id}>
                  {q.name}
                </option>
              ))}
              <option value={NEW}>New queue…</option>
            </select>
          </label>
          {choice === NEW ? (
            <NewQueueForm projectId={projectId} onCreated={(id, name) => void add(id, name)} />
          ) : (
            <button
              type="button"
              disabled={!picked || busy || readOnly}
              title={readOnly ? READ_ONLY_NOTE : undefined}
              onClick={() => picked && void add(picked.id, picked.name)}
            >
              {busy ? 'Adding…' : `Add ${what}`}
            </button>
          )}
          {readOnly && <p className="muted">{READ_ONLY_NOTE}</p>}
        </>
      )}
      {queues.error && <ErrorView error={queues.error} />}
      {failure !== undefined && <ErrorView error={failure} />}
    </div>
  );
}
