// A project's annotation queues, newest first, with each one's progress; each opens its page. A new
// queue, with its scorers, is created here.
import { parseJsonLines } from '@weft/client';
import type { AnnotationQueueSchema } from '@weft/types';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { formatTime } from '../call-facts.ts';
import { NewQueueForm } from '../components/new-queue-form.tsx';
import { ErrorView, Loading } from '../components/query-state.tsx';
import { useApi } from '../session.tsx';

export function QueuesPage() {
  const { entity, project } = useParams() as { entity: string; project: string };
  const projectId = `${entity}/${project}`;
  const { $api } = useApi();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const query = $api.useQuery(
    'post',
    '/annotation_queues/query',
    { body: { project_id: projectId, sort_by: [{ field: 'created_at', direction: 'desc' }], limit: 1000 }, parseAs: 'text' },
    { select: (text) => parseJsonLines<AnnotationQueueSchema>(text) },
  );
  const ids = query.data?.map((q) => q.id) ?? [];
  const stats = $api.useQuery(
    'post',
    '/annotation_queues/stats',
    { body: { project_id: projectId, queue_ids: ids } },
    { enabled: ids.length > 0 },
  );
  const progress = new Map(stats.data?.stats.map((s) => [s.queue_id, s]));
  return (
    <section>
      <div className="row">
        <h1>
          Annotation queues <span className="muted">of {projectId}</span>
        </h1>
        <button type="button" aria-expanded={creating} onClick={() => setCreating(!creating)}>
          New queue
        </button>
      </div>
      {creating && <NewQueueForm projectId={projectId} onCreated={(id) => void navigate(`/${entity}/${project}/queues/${id}`)} />}
      {query.isPending ? (
        <Loading what="annotation queues" />
      ) : query.error ? (
        <ErrorView error={query.error} />
      ) : query.data.length === 0 ? (
        <p className="muted">No annotation queue in this project.</p>
      ) : (
        <table className="grid" aria-label="Annotation queues">
          <thead>
            <tr>
              <th>Name</th>
              <th>Description</th>
              <th>Scorers</th>
              <th>Done</th>
              <th>Updated</th>
            </tr>
          </thead>
          <tbody>
            {query.data.map((q) => {
              const s = progress.get(q.id);
              return (
                <tr key={q.id}>
                  <td>
                    <Link to={`/${entity}/${project}/queues/${q.id}`}>{q.name}</Link>
                  </td>
                  <td>{q.description}</td>
                  <td className="num">{q.scorer_refs.length}</td>
                  <td className="num">{s ? `${s.completed_items.toLocaleString()} / ${s.total_items.toLocaleString()}` : ''}</td>
                  <td>{formatTime(q.updated_at)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
