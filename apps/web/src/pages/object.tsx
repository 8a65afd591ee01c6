// An object's versions, newest first; the selected version's value (`?v=<digest>`, the latest by
// default), and its difference from another version (`&compare=<digest>`). A Dataset's rows open
// in the table viewer; an op's source code is shown highlighted.
import type { ObjSchema } from '@weft/types';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { formatTime } from '../call-facts.ts';
import { DiffView } from '../components/diff-view.tsx';
import { JsonView } from '../components/json-view.tsx';
import { OpSourceView } from '../components/op-source-view.tsx';
import { ErrorView, Loading } from '../components/query-state.tsx';
import { opSourceFiles } from '../op-source.ts';
import { useApi } from '../session.tsx';

/** `weave:///<entity>/<project>/table/<digest>` anywhere in a value: the tables it references. */
export function tableRefsOf(value: unknown): string[] {
  const found = new Set<string>();
  const stack = [value];
  while (stack.length > 0 && found.size < 20) {
    const v = stack.pop();
    if (typeof v === 'string') {
      const m = /^weave:\/\/\/[^/]+\/[^/]+\/table\/([0-9a-f]{64})$/.exec(v);
      if (m) found.add(m[1]!);
    } else if (typeof v === 'object' && v !== null) stack.push(...(Object.values(v) as unknown[]));
  }
  return [...found];
}

export function ObjectPage() {
  const { entity, project, objectId } = useParams() as { entity: string; project: string; objectId: string };
  const projectId = `${entity}/${project}`;
  const [params, setParams] = useSearchParams();
  const { $api } = useApi();
  const versions = $api.useQuery('post', '/objs/query', {
    body: {
      project_id: projectId,
      filter: { object_ids: [objectId] },
      metadata_only: true,
      sort_by: [{ field: 'created_at', direction: 'desc' }],
      limit: 1000,
    },
  });
  if (versions.isPending) return <Loading what="versions" />;
  if (versions.error) return <ErrorView error={versions.error} />;
  const list = versions.data.objs;
  const selected = list.find((o) => o.digest === params.get('v')) ?? list[0];
  const compare = list.find((o) => o.digest === params.get('compare'));
  const choose = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes))
      if (v === undefined) next.delete(k);
      else next.set(k, v);
    setParams(next);
  };
  return (
    <section>
      <p>
        <Link to={`/${entity}/${project}/objects`}>← Objects of {projectId}</Link>
      </p>
      <h1>{objectId}</h1>
      {!selected ? (
        <p className="muted">No version of this object.</p>
      ) : (
        <div className="split">
          <table className="grid" aria-label="Versions">
            <thead>
              <tr>
                <th>Version</th>
                <th>Created</th>
                <th>Compare</th>
              </tr>
            </thead>
            <tbody>
              {list.map((o) => (
                <tr key={o.digest} className={o.digest === selected.digest ? 'selected' : undefined}>
                  <td>
                    <button
                      type="button"
                      className="link"
                      aria-current={o.digest === selected.digest}
                      onClick={() => choose({ v: o.digest })}
                    >
                      v{o.version_index}
                    </button>
                    {/* is_latest is 0 or 1: a bare `&&` would render the 0. */}
                    {o.is_latest === 1 && <span className="muted"> latest</span>}
                  </td>
                  <td>{formatTime(o.created_at)}</td>
                  <td>
                    {o.digest !== selected.digest && (
                      <button
                        type="button"
                        className="link"
                        onClick={() => choose({ compare: compare?.digest === o.digest ? undefined : o.digest })}
                      >
                        {compare?.digest === o.digest ? 'stop comparing' : `diff with v${selected.version_index}`}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <VersionValue projectId={projectId} version={selected} compare={compare} />
        </div>
      )}
    </section>
  );
}

function VersionValue({ projectId, version, compare }: { projectId: string; version: ObjSchema; compare: ObjSchema | undefined }) {
  const { $api } = useApi();
  const read = (digest: string) => ({ body: { project_id: projectId, object_id: version.object_id, digest } });
  const value = $api.useQuery('post', '/obj/read', read(version.digest));
  const other = $api.useQuery('post', '/obj/read', read(compare?.digest ?? version.digest), { enabled: compare !== undefined });
  const [internals, setInternals] = useState(false);
  if (value.isPending) return <Loading what="the value" />;
  if (value.error) return <ErrorView error={value.error} />;
  const [entity, project] = projectId.split('/') as [string, string];
  const shown = (val: unknown) => (internals ? val : withoutInternals(val));
  const tables = tableRefsOf(value.data.obj.val);
  const sources = opSourceFiles(value.data.obj.val);
  return (
    <article aria-label="Version value" className="details">
      <h2>
        v{version.version_index} <span className="muted mono">{version.digest}</span>
      </h2>
      {tables.map((digest) => (
        <p key={digest}>
          <Link to={`/${entity}/${project}/tables/${digest}?${new URLSearchParams({ object: version.object_id, v: version.digest })}`}>
            Open the rows of table {digest.slice(0, 12)}…
          </Link>
        </p>
      ))}
      {sources.map((file) => (
        <OpSourceView key={file.name} projectId={projectId} file={file} />
      ))}
      {hasInternals(value.data.obj.val) && (
        <label className="check">
          <input type="checkbox" checked={internals} onChange={(e) => setInternals(e.target.checked)} />
          Show Weave's internal fields ({INTERNAL.join(', ')})
        </label>
      )}
      {compare && other.data ? (
        <DiffView
          before={shown(other.data.obj.val)}
          after={shown(value.data.obj.val)}
          beforeLabel={`v${compare.version_index}`}
          afterLabel={`v${version.version_index}`}
        />
      ) : (
        <JsonView value={shown(value.data.obj.val)} />
      )}
    </article>
  );
}

// The keys Weave's SDKs add to an object's value for their classes: hidden unless asked for.
const INTERNAL = ['_type', '_class_name', '_bases'];

function hasInternals(val: unknown): boolean {
  return typeof val === 'object' && val !== null && !Array.isArray(val) && INTERNAL.some((k) => k in val);
}

/** The value without the internal keys, the others in the order the server keeps. */
function withoutInternals(val: unknown): unknown {
  if (!hasInternals(val)) return val;
  return Object.fromEntries(Object.entries(val as Record<string, unknown>).filter(([k]) => !INTERNAL.includes(k)));
}
