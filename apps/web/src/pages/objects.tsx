// A project's objects (latest versions), by id, 100 a page; each opens its versions.
import { Link, useParams, useSearchParams } from 'react-router';
import { formatTime } from '../call-facts.ts';
import { Pager } from '../components/pager.tsx';
import { ErrorView, Loading } from '../components/query-state.tsx';
import { useApi } from '../session.tsx';

const PAGE = 100;

export function ObjectsPage() {
  const { entity, project } = useParams() as { entity: string; project: string };
  const projectId = `${entity}/${project}`;
  const [params, setParams] = useSearchParams();
  const page = Math.max(0, Number(params.get('page') ?? 0) || 0);
  const { $api } = useApi();
  const query = $api.useQuery('post', '/objs/query', {
    body: {
      project_id: projectId,
      filter: { latest_only: true },
      metadata_only: true,
      sort_by: [{ field: 'object_id', direction: 'asc' }],
      limit: PAGE + 1,
      offset: page * PAGE,
    },
  });
  return (
    <section>
      <h1>
        Objects <span className="muted">of {projectId}</span>
      </h1>
      {query.isPending ? (
        <Loading what="objects" />
      ) : query.error ? (
        <ErrorView error={query.error} />
      ) : (
        <>
          <table className="grid" aria-label="Objects">
            <thead>
              <tr>
                <th>Object</th>
                <th>Class</th>
                <th>Versions</th>
                <th>Latest version created</th>
              </tr>
            </thead>
            <tbody>
              {query.data.objs.slice(0, PAGE).map((o) => (
                <tr key={o.object_id}>
                  <td>
                    <Link to={`/${entity}/${project}/objects/${encodeURIComponent(o.object_id)}`}>{o.object_id}</Link>
                  </td>
                  <td>{o.kind === 'op' ? 'Op' : o.base_object_class || 'Object'}</td>
                  <td className="num">{o.version_index + 1}</td>
                  <td>{formatTime(o.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {query.data.objs.length === 0 && <p className="muted">No object in this project.</p>}
          <Pager page={page} hasNext={query.data.objs.length > PAGE} onPage={(n) => setParams(n > 0 ? { page: String(n) } : {})}>
            Page {page + 1}
          </Pager>
        </>
      )}
    </section>
  );
}
