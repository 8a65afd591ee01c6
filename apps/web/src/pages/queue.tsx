// One annotation queue: its progress and the way into the review workspace, its results (items
// with their scores, exported as CSV or JSON Lines), and its settings: name, description and
// scorers (the seed's PUT). What the form shows is what the server answered; a refused edit shows
// the server's reason and keeps the draft.
import type { AnnotationQueueSchema } from '@weft/types';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { formatTime } from '../call-facts.ts';
import { ErrorView, Loading } from '../components/query-state.tsx';
import { QueueResultsTable } from '../components/queue-results-table.tsx';
import { READ_ONLY_NOTE, useApi, useReadOnly } from '../session.tsx';

export function QueuePage() {
  const { entity, project, queueId } = useParams() as { entity: string; project: string; queueId: string };
  const projectId = `${entity}/${project}`;
  const { $api } = useApi();
  const read = $api.useQuery('get', '/annotation_queues/{queue_id}', {
    params: { path: { queue_id: queueId }, query: { project_id: projectId } },
  });
  // Here, not in the form: a saved edit remounts the form (below), and its outcome must outlive that.
  const save = useSaveQueue();
  return (
    <section>
      <p>
        <Link to={`/${entity}/${project}/queues`}>← Annotation queues of {projectId}</Link>
      </p>
      {read.isPending ? (
        <Loading what="the queue" />
      ) : read.error ? (
        <ErrorView error={read.error} />
      ) : (
        <>
          <QueueHeader queue={read.data.queue} />
          <QueueResultsTable queue={read.data.queue} />
          {/* Keyed by the stored version: a saved edit starts a fresh draft from the server's answer. */}
          <QueueForm key={read.data.queue.updated_at} queue={read.data.queue} save={save} />
        </>
      )}
    </section>
  );
}

function QueueHeader({ queue }: { queue: AnnotationQueueSchema }) {
  const { $api } = useApi();
  const [entity, project] = queue.project_id.split('/') as [string, string];
  const stats = $api.useQuery('post', '/annotation_queues/stats', { body: { project_id: queue.project_id, queue_ids: [queue.id] } });
  const counts = stats.data?.stats[0];
  return (
    <header className="queue-header">
      <h1>{queue.name}</h1>
      {queue.description && <p>{queue.description}</p>}
      <div className="row">
        {counts && (
          <span role="status">
            {counts.completed_items.toLocaleString()} of {counts.total_items.toLocaleString()} done
            <progress value={counts.completed_items} max={Math.max(1, counts.total_items)} />
          </span>
        )}
        <Link className="button" to={`/${entity}/${project}/queues/${queue.id}/review`}>
          Review
        </Link>
      </div>
      <p className="muted">
        Created by {queue.created_by} on {formatTime(queue.created_at)}; last changed {formatTime(queue.updated_at)}.
      </p>
    </header>
  );
}

function useSaveQueue() {
  const { $api } = useApi();
  const queryClient = useQueryClient();
  return $api.useMutation('put', '/annotation_queues/{queue_id}', { onSuccess: () => queryClient.invalidateQueries() });
}

type SaveQueue = ReturnType<typeof useSaveQueue>;

function QueueForm({ queue, save }: { queue: AnnotationQueueSchema; save: SaveQueue }) {
  const [draft, setDraft] = useState({ name: queue.name, description: queue.description, scorers: queue.scorer_refs.join('\n') });
  const readOnly = useReadOnly(queue.project_id.split('/')[0]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({
      params: { path: { queue_id: queue.id } },
      body: {
        project_id: queue.project_id,
        name: draft.name,
        description: draft.description,
        scorer_refs: draft.scorers
          .split('\n')
          .map((s) => s.trim())
          .filter((s) => s !== ''),
      },
    });
  };
  return (
    <form className="edit-form" onSubmit={submit} aria-label="Edit the annotation queue">
      <h2>Settings</h2>
      <label>
        Name
        <input required maxLength={1024} value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} />
      </label>
      <label>
        Description
        <textarea rows={3} value={draft.description} onChange={(e) => setDraft({ ...draft, description: e.target.value })} />
      </label>
      <label>
        Scorers (one ref a line)
        <textarea rows={4} className="mono" value={draft.scorers} onChange={(e) => setDraft({ ...draft, scorers: e.target.value })} />
      </label>
      <div>
        <button type="submit" disabled={save.isPending || readOnly} title={readOnly ? READ_ONLY_NOTE : undefined}>
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
        {readOnly && <span className="muted"> {READ_ONLY_NOTE}</span>}
        {save.isSuccess && (
          <span role="status" className="muted">
            {' '}
            Saved.
          </span>
        )}
      </div>
      {save.error && <ErrorView error={save.error} />}
    </form>
  );
}
