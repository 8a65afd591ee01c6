// A project's RL runs: ART models, oldest first, each opening its charts.
import { Link, useParams } from 'react-router';
import { ErrorView, Loading } from '../components/query-state.tsx';
import { useApi } from '../session.tsx';

export function RunsPage() {
  const { entity, project } = useParams() as { entity: string; project: string };
  const projectId = `${entity}/${project}`;
  const { $api } = useApi();
  const query = $api.useQuery('get', '/v1/preview/models', { params: { query: { project: projectId, limit: 100 } } });
  return (
    <section>
      <h1>
        RL runs <span className="muted">of {projectId}</span>
      </h1>
      {query.isPending ? (
        <Loading what="runs" />
      ) : query.error ? (
        <ErrorView error={query.error} />
      ) : query.data.data.length === 0 ? (
        <p className="muted">No ART model in this project.</p>
      ) : (
        <table className="grid" aria-label="RL runs">
          <thead>
            <tr>
              <th>Model</th>
              <th>Base model</th>
            </tr>
          </thead>
          <tbody>
            {query.data.data.map((m) => (
              <tr key={m.id}>
                <td>
                  <Link to={`/${entity}/${project}/runs/${m.id}`}>{m.name}</Link>
                </td>
                <td className="mono">{m.base_model}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {query.data?.has_more && <p className="muted">Only the first 100 runs are shown.</p>}
    </section>
  );
}
