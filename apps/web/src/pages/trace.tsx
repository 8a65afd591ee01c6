// One trace: the call tree with a timeline of durations (collapsible), and the selected call's
// details. The URL names the selected call (`/<entity>/<project>/r/call/<id>`, the Weave SDK's link).
import { parseJsonLines } from '@weft/client';
import type { CallSchema } from '@weft/types';
import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { AddToQueue } from '../components/add-to-queue.tsx';
import { CallDetails } from '../components/call-details.tsx';
import { ErrorView, Loading } from '../components/query-state.tsx';
import { TraceTotals } from '../components/trace-totals.tsx';
import { TraceTree } from '../components/trace-tree.tsx';
import { useApi } from '../session.tsx';

/** Calls of one trace read at most; a larger trace says so. */
const TRACE_MAX = 5000;

export function TracePage() {
  const { entity, project, callId } = useParams() as { entity: string; project: string; callId: string };
  const projectId = `${entity}/${project}`;
  const { $api } = useApi();
  const navigate = useNavigate();
  const [reviewing, setReviewing] = useState(false);
  // The previous call stays shown while the next one loads: moving through a trace keeps the tree
  // (and its keyboard focus) in place.
  const selected = $api.useQuery(
    'post',
    '/call/read',
    { body: { project_id: projectId, id: callId, include_costs: true } },
    { placeholderData: keepPreviousData },
  );
  const traceId = selected.data?.call.trace_id;
  const trace = $api.useQuery(
    'post',
    '/calls/stream_query',
    {
      body: {
        project_id: projectId,
        filter: { trace_ids: traceId ? [traceId] : [] },
        limit: TRACE_MAX,
        include_costs: true,
        include_feedback: true,
      },
      parseAs: 'text',
    },
    { enabled: traceId !== undefined, select: (text) => parseJsonLines<CallSchema>(text) },
  );

  if (selected.isPending) return <Loading what="the call" />;
  if (selected.error) return <ErrorView error={selected.error} />;
  const call = trace.data?.find((c) => c.id === callId) ?? selected.data.call;
  return (
    <section className="trace">
      <div className="row">
        <Link to={`/${entity}/${project}/traces`}>← Traces of {projectId}</Link>
        <button type="button" onClick={() => setReviewing(!reviewing)} aria-expanded={reviewing}>
          Add to queue…
        </button>
      </div>
      {reviewing && (
        <AddToQueue
          key={callId}
          projectId={projectId}
          selection={{ count: 1, ids: () => Promise.resolve([callId]) }}
          onClose={() => setReviewing(false)}
        />
      )}
      <div className="split">
        <div className="tree-pane">
          <h1>Trace</h1>
          {trace.data && <TraceTotals calls={trace.data} partial={trace.data.length >= TRACE_MAX} />}
          {trace.isPending ? (
            <Loading what="the trace" />
          ) : trace.error ? (
            <ErrorView error={trace.error} />
          ) : (
            <>
              <TraceTree
                calls={trace.data}
                selectedId={callId}
                hrefOf={(id) => `/${entity}/${project}/r/call/${id}`}
                onSelect={(id) => void navigate(`/${entity}/${project}/r/call/${id}`, { replace: true })}
              />
              {trace.data.length >= TRACE_MAX && <p className="muted">Only the first {TRACE_MAX} calls of this trace are shown.</p>}
            </>
          )}
        </div>
        <CallDetails call={call} />
      </div>
    </section>
  );
}
