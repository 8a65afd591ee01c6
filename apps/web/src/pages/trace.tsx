// One trace: the call tree with a timeline of durations (collapsible), and the selected call's
// details. The URL names the selected call (`/<entity>/<project>/r/call/<id>`, the Weave SDK's link).
import { parseJsonLines } from '@weft/client';
import type { CallSchema } from '@weft/types';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { buildTree, timeline, type CallNode, type Span } from '../call-tree.ts';
import { formatDuration, latencyOf, opLabel, statusOf } from '../call-facts.ts';
import { CallDetails } from '../components/call-details.tsx';
import { ErrorView, Loading } from '../components/query-state.tsx';
import { StatusBadge } from '../components/status-badge.tsx';
import { useApi } from '../session.tsx';

/** Calls of one trace read at most; a larger trace says so. */
const TRACE_MAX = 5000;

export function TracePage() {
  const { entity, project, callId } = useParams() as { entity: string; project: string; callId: string };
  const projectId = `${entity}/${project}`;
  const { $api } = useApi();
  const selected = $api.useQuery('post', '/call/read', { body: { project_id: projectId, id: callId, include_costs: true } });
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
      <p>
        <Link to={`/${entity}/${project}/traces`}>← Traces of {projectId}</Link>
      </p>
      <div className="split">
        <div className="tree-pane">
          <h1>Trace</h1>
          {trace.isPending ? (
            <Loading what="the trace" />
          ) : trace.error ? (
            <ErrorView error={trace.error} />
          ) : (
            <>
              <TraceTree calls={trace.data} selectedId={callId} />
              {trace.data.length >= TRACE_MAX && <p className="muted">Only the first {TRACE_MAX} calls of this trace are shown.</p>}
            </>
          )}
        </div>
        <CallDetails call={call} />
      </div>
    </section>
  );
}

function TraceTree({ calls, selectedId }: { calls: CallSchema[]; selectedId: string }) {
  const roots = useMemo(() => buildTree(calls), [calls]);
  const spanOf = useMemo(() => timeline(calls), [calls]);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) => {
    const next = new Set(collapsed);
    if (!next.delete(id)) next.add(id);
    setCollapsed(next);
  };
  // Flattened in display order, skipping the children of collapsed calls.
  const rows: CallNode[] = [];
  const stack = [...roots].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    rows.push(node);
    if (!collapsed.has(node.call.id)) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return (
    <ul role="tree" aria-label="Calls of the trace" className="call-tree">
      {rows.map((node) => (
        <TreeRow
          key={node.call.id}
          node={node}
          span={spanOf(node.call)}
          selected={node.call.id === selectedId}
          collapsed={collapsed.has(node.call.id)}
          onToggle={() => toggle(node.call.id)}
        />
      ))}
    </ul>
  );
}

interface TreeRowProps {
  node: CallNode;
  span: Span;
  selected: boolean;
  collapsed: boolean;
  onToggle: () => void;
}

function TreeRow({ node, span, selected, collapsed, onToggle }: TreeRowProps) {
  const navigate = useNavigate();
  const { entity, project } = useParams();
  const { call } = node;
  const status = statusOf(call);
  const open = () => void navigate(`/${entity}/${project}/r/call/${call.id}`, { replace: true });
  return (
    <li
      role="treeitem"
      aria-level={node.depth + 1}
      aria-selected={selected}
      aria-expanded={node.children.length > 0 ? !collapsed : undefined}
      className={selected ? 'selected' : undefined}
    >
      <div className="tree-row" style={{ paddingLeft: `${node.depth * 16}px` }}>
        {node.children.length > 0 ? (
          <button type="button" className="toggle" aria-label={collapsed ? 'Expand' : 'Collapse'} onClick={onToggle}>
            {collapsed ? '▸' : '▾'}
          </button>
        ) : (
          <span className="toggle" />
        )}
        <button type="button" className="link call-name" onClick={open}>
          {opLabel(call)}
        </button>
        {status !== 'success' && <StatusBadge status={status} />}
        <span className="muted num">{formatDuration(latencyOf(call))}</span>
      </div>
      <div className="bar-track" aria-hidden="true">
        <div className={`bar bar-${status}`} style={{ marginLeft: `${span.left * 100}%`, width: `max(2px, ${span.width * 100}%)` }} />
      </div>
    </li>
  );
}
