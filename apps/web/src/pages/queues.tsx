// A project's annotation queues, newest first, each opening its edit page.
import { parseJsonLines } from '@weft/client';
import type { AnnotationQueueSchema } from '@weft/types';
import { Link, useParams } from 'react-router';
import { formatTime } from '../call-facts.ts';
import { ErrorView, Loading } from '../components/query-state.tsx';
import { useApi } from '../session.tsx';

export function QueuesPage() {
  const { entity, project } = useParams() as { entity: string; project: string };
  const projectId = `${entity}/${project}`;
  const { $api } = useApi();
  const query = $api.useQuery(
    'post',
    '/annotation_queues/query',
    { body: { project_id: projectId, sort_by: [{ field: 'created_at', direction: 'desc' }], limit: 1000 }, parseAs: 'text' },
    { select: (text) => parseJsonLines<AnnotationQueueSchema>(text) },
  );
  return (
    <section>
      <h1>
        Annotation queues <span className="muted">of {projectId}</span>
      </h1>
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
              <th>Updated</th>
            </tr>
          </thead>
          <tbody>
            {query.data.map((q) => (
              <tr key={q.id}>
                <td>
                  <Link to={`/${entity}/${project}/queues/${q.id}`}>{q.name}</Link>
                </td>
                <td>{q.description}</td>
                <td className="num">{q.scorer_refs.length}</td>
                <td>{formatTime(q.updated_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
