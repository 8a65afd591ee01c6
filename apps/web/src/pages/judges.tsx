// LLM-as-judge in a project: its monitors (Weave's Monitor objects) with what their judgements did
// and cost, calls/score's judgements per scorer, and the latest failures with their reasons. The
// numbers refresh while judgements are pending.
import { Link, useParams } from 'react-router';
import { formatCost } from '../call-facts.ts';
import { ErrorView, Loading } from '../components/query-state.tsx';
import { TimeAgo } from '../components/time-ago.tsx';
import { refName } from '../eval-compare.ts';
import { monitorRows, requestedRows, type JudgedCounts } from '../judges-summary.ts';
import { useApi } from '../session.tsx';

const REFRESH_MS = 5000;

export function JudgesPage() {
  const { entity, project } = useParams() as { entity: string; project: string };
  const projectId = `${entity}/${project}`;
  const base = `/${entity}/${project}`;
  const { $api } = useApi();
  const monitors = $api.useQuery('post', '/objs/query', {
    body: {
      project_id: projectId,
      filter: { latest_only: true, base_object_classes: ['Monitor'] },
      sort_by: [{ field: 'object_id', direction: 'asc' }],
      limit: 1000,
    },
  });
  const stats = $api.useQuery(
    'post',
    '/judgements/stats',
    { body: { project_id: projectId } },
    { refetchInterval: (q) => (q.state.data?.groups.some((g) => g.queued + g.running > 0) ? REFRESH_MS : false) },
  );
  const failures = $api.useQuery('post', '/judgements/query', { body: { project_id: projectId, states: ['failed'], limit: 20 } });
  if (monitors.isPending || stats.isPending) return <Loading what="the judges" />;
  if (monitors.error || stats.error) return <ErrorView error={monitors.error ?? stats.error} />;
  const rows = monitorRows(monitors.data.objs, stats.data.groups);
  const requested = requestedRows(stats.data.groups);
  return (
    <section>
      <h1>
        Judges <span className="muted">of {projectId}</span>
      </h1>
      <p className="muted">
        LLM-as-judge scorers run through the router: on new calls by a monitor (a Weave <code>Monitor</code> object), or on chosen calls by{' '}
        <code>calls/score</code>. Each judgement is a router call of this project, and its score is feedback on the judged call.
      </p>
      <h2>Monitors</h2>
      {rows.length === 0 ? (
        <p className="muted">No monitor in this project: publish a Weave Monitor object (weave.Monitor(…).activate()).</p>
      ) : (
        <table className="grid" aria-label="Monitors">
          <thead>
            <tr>
              <th>Monitor</th>
              <th>State</th>
              <th className="num">Sampling</th>
              <th>Ops</th>
              <CountHeads />
            </tr>
          </thead>
          <tbody>
            {rows.map((m) => (
              <tr key={m.name} data-monitor={m.name}>
                <td>
                  <Link to={`${base}/objects/${encodeURIComponent(m.name)}`}>{m.name}</Link>
                </td>
                <td>{m.active ? 'active' : m.sampling_rate === undefined ? 'deleted' : 'paused'}</td>
                <td className="num">{m.sampling_rate === undefined ? '' : `${Math.round(m.sampling_rate * 1000) / 10}%`}</td>
                <td>{m.op_names.length ? m.op_names.map(refName).join(', ') : 'every op'}</td>
                <CountCells counts={m} />
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Judged on request</h2>
      {requested.length === 0 ? (
        <p className="muted">Nothing judged with calls/score yet.</p>
      ) : (
        <table className="grid" aria-label="Judged on request">
          <thead>
            <tr>
              <th>Scorer</th>
              <CountHeads />
            </tr>
          </thead>
          <tbody>
            {requested.map((s) => (
              <tr key={s.scorer_ref}>
                <td title={s.scorer_ref}>{s.scorer}</td>
                <CountCells counts={s} />
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {failures.data && failures.data.judgements.length > 0 && (
        <>
          <h2>Latest failures</h2>
          <table className="grid" aria-label="Failed judgements">
            <thead>
              <tr>
                <th>Call</th>
                <th>Scorer</th>
                <th>Why</th>
                <th>When</th>
              </tr>
            </thead>
            <tbody>
              {failures.data.judgements.map((j) => (
                <tr key={j.id}>
                  <td>
                    <Link to={`${base}/r/call/${j.call_id}`}>{j.call_id.slice(-12)}</Link>
                  </td>
                  <td>{refName(j.scorer_ref)}</td>
                  <td>{j.error}</td>
                  <td>
                    <TimeAgo iso={j.updated_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}

/** The count columns both tables share. */
function CountHeads() {
  return (
    <>
      <th className="num">Judged</th>
      <th className="num">Pending</th>
      <th className="num">Failed</th>
      <th className="num">Cost</th>
      <th>Last judged</th>
    </>
  );
}

function CountCells({ counts: c }: { counts: JudgedCounts }) {
  return (
    <>
      <td className="num" data-col="done">
        {c.done.toLocaleString()}
      </td>
      <td className="num">{c.pending.toLocaleString()}</td>
      <td className="num">{c.failed.toLocaleString()}</td>
      <td className="num" data-col="cost">
        {formatCost(c.cost_usd)}
      </td>
      <td>{c.last_done_at ? <TimeAgo iso={c.last_done_at} /> : ''}</td>
    </>
  );
}
