import { Link } from 'react-router';
import { ErrorView, Loading } from '../components/query-state.tsx';
import { useApi } from '../session.tsx';

export function ProjectsPage() {
  const { $api } = useApi();
  const { data, error, isPending } = $api.useQuery('get', '/projects');
  if (isPending) return <Loading what="projects" />;
  if (error) return <ErrorView error={error} />;
  return (
    <section>
      <h1>Projects</h1>
      {data.projects.length === 0 ? (
        <p className="muted">
          No project holds data yet. Send traces with a Weave SDK or OpenTelemetry, or run <code>pnpm weft demo</code>.
        </p>
      ) : (
        <ul className="cards" aria-label="Projects">
          {data.projects.map((p) => (
            <li key={p.project_id}>
              <Link to={`/${p.entity}/${p.project}/traces`}>
                <span className="muted">{p.entity} /</span> {p.project}
              </Link>
            </li>
          ))}
        </ul>
      )}
      {data.has_more && <p className="muted">Only the first {data.projects.length} projects are shown.</p>}
    </section>
  );
}
