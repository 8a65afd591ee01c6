// A project's evaluation runs: the `Evaluation.evaluate` calls the Weave SDKs write, newest first,
// each with its evaluation, model, dataset, status and summary numbers; pick two or more and
// Compare (the first picked is the baseline).
import { parseJsonLines } from '@weft/client';
import type { CallSchema } from '@weft/types';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { formatTime, opLabel, statusOf } from '../call-facts.ts';
import { refName } from '../eval-compare.ts';
import { Pager } from '../components/pager.tsx';
import { ErrorView, Loading } from '../components/query-state.tsx';
import { StatusBadge } from '../components/status-badge.tsx';
import { useApi } from '../session.tsx';

const PAGE = 50;
const SHOWN_NUMBERS = 4;

/** The first numbers of an evaluation's summary, as `exact.true_fraction 0.75`. */
function summaryNumbers(output: unknown, prefix = ''): string[] {
  if (typeof output === 'number') return [`${prefix} ${Number.isInteger(output) ? output : output.toFixed(3)}`];
  if (typeof output !== 'object' || output === null || Array.isArray(output)) return [];
  return Object.entries(output).flatMap(([k, v]) => summaryNumbers(v, prefix ? `${prefix}.${k}` : k));
}

export function EvaluationsPage() {
  const { entity, project } = useParams() as { entity: string; project: string };
  const projectId = `${entity}/${project}`;
  const navigate = useNavigate();
  const [page, setPage] = useState(0);
  const [picked, setPicked] = useState<string[]>([]);
  const { $api } = useApi();
  const runs = $api.useQuery(
    'post',
    '/calls/stream_query',
    {
      body: {
        project_id: projectId,
        filter: { op_names: [`weave:///${projectId}/op/Evaluation.evaluate:*`] },
        sort_by: [{ field: 'started_at', direction: 'desc' }],
        limit: PAGE + 1,
        offset: page * PAGE,
      },
      parseAs: 'text',
    },
    { select: (text) => parseJsonLines<CallSchema>(text) },
  );
  const shown = runs.data?.slice(0, PAGE) ?? [];
  // The Evaluation objects, for their datasets.
  const evalRefs = [...new Set(shown.map((c) => c.inputs.self).filter((r): r is string => typeof r === 'string'))];
  const objects = $api.useQuery('post', '/refs/read_batch', { body: { refs: evalRefs } }, { enabled: evalRefs.length > 0 });
  const datasetOf = (ref: unknown) => {
    const i = evalRefs.indexOf(ref as string);
    const val = i >= 0 ? (objects.data?.vals[i] as { dataset?: unknown } | undefined) : undefined;
    return val?.dataset === undefined ? '—' : refName(val.dataset);
  };
  const toggle = (id: string, on: boolean) => setPicked(on ? [...picked, id] : picked.filter((p) => p !== id));

  return (
    <section>
      <div className="row">
        <h1>
          Evaluations <span className="muted">of {projectId}</span>
        </h1>
        <button
          type="button"
          disabled={picked.length < 2}
          title={picked.length < 2 ? 'Pick two evaluations or more; the first picked is the baseline' : undefined}
          onClick={() => void navigate(`/${entity}/${project}/evaluations/compare?ids=${picked.map(encodeURIComponent).join(',')}`)}
        >
          Compare {picked.length > 0 ? `(${picked.length})` : ''}
        </button>
      </div>
      {runs.isPending ? (
        <Loading what="evaluations" />
      ) : runs.error ? (
        <ErrorView error={runs.error} />
      ) : shown.length === 0 && page === 0 ? (
        <p className="muted">No evaluation in this project: a Weave SDK's Evaluation.evaluate (Python or TypeScript) records one.</p>
      ) : (
        <>
          <table className="grid" aria-label="Evaluations">
            <thead>
              <tr>
                <th className="check">Pick</th>
                <th>Run</th>
                <th>Evaluation</th>
                <th>Model</th>
                <th>Dataset</th>
                <th>Status</th>
                <th>Summary</th>
                <th>Started</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((call) => {
                const numbers = summaryNumbers(call.output);
                return (
                  <tr key={call.id}>
                    <td className="check">
                      <input
                        type="checkbox"
                        aria-label={`Pick ${opLabel(call)}`}
                        checked={picked.includes(call.id)}
                        onChange={(e) => toggle(call.id, e.target.checked)}
                      />
                      {picked.indexOf(call.id) === 0 && <span className="muted"> baseline</span>}
                    </td>
                    <td>
                      <Link to={`/${entity}/${project}/r/call/${call.id}`}>{opLabel(call)}</Link>
                    </td>
                    <td>{refName(call.inputs.self)}</td>
                    <td>{refName(call.inputs.model)}</td>
                    <td>{datasetOf(call.inputs.self)}</td>
                    <td>
                      <StatusBadge status={statusOf(call)} />
                    </td>
                    <td className="mono" title={numbers.join('\n')}>
                      {numbers.slice(0, SHOWN_NUMBERS).join(' · ')}
                      {numbers.length > SHOWN_NUMBERS && ' …'}
                    </td>
                    <td>{formatTime(call.started_at)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <Pager page={page} hasNext={(runs.data?.length ?? 0) > PAGE} onPage={setPage}>
            Page {page + 1} · evaluations {page * PAGE + Math.min(1, shown.length)}–{page * PAGE + shown.length}
          </Pager>
        </>
      )}
    </section>
  );
}
