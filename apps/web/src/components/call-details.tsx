// The selected call: times, status, exception, inputs, output (chat messages as a conversation),
// usage and cost per model, the summary and attributes as tables of fields, and feedback.
import type { CallSchema } from '@weft/types';
import { Link } from 'react-router';
import { costOf, formatCost, formatDuration, formatTime, latencyOf, opLabel, statusOf, tokensOf } from '../call-facts.ts';
import { CallFeedback } from './call-feedback.tsx';
import { ChatView, messagesOf } from './chat-view.tsx';
import { ExceptionView } from './exception-view.tsx';
import { callKind } from '../call-kind.ts';
import { JsonView } from './json-view.tsx';
import { KindIcon } from './kind-icon.tsx';
import { OpenInPlayground } from './open-in-playground.tsx';
import { StatusBadge } from './status-badge.tsx';
import { FieldsTable, UsageTable } from './usage-tables.tsx';

// Shown in the usage table rather than again among the summary's fields.
const inUsageTable = (path: string) => path === 'usage' || path === 'weave.costs';

export function CallDetails({ call }: { call: CallSchema }) {
  const summary = (call.summary ?? {}) as Record<string, unknown>;
  const inputMessages = messagesOf(call.inputs);
  const outputMessages = messagesOf(call.output);
  return (
    <article className="details" aria-label="Call details">
      <h2>
        <KindIcon kind={callKind(call)} /> {opLabel(call)} <StatusBadge status={statusOf(call)} />
      </h2>
      <OpenInPlayground projectId={call.project_id} callId={call.id} inputs={call.inputs} />
      <dl className="facts">
        <dt>Started</dt>
        <dd>{formatTime(call.started_at)}</dd>
        <dt>Latency</dt>
        <dd>{formatDuration(latencyOf(call))}</dd>
        <dt>Tokens</dt>
        <dd>{tokensOf(call) > 0 ? tokensOf(call).toLocaleString('en-US') : '—'}</dd>
        <dt>Cost</dt>
        <dd>{formatCost(costOf(call))}</dd>
        {call.thread_id && (
          <>
            <dt>Thread</dt>
            <dd>
              <Link to={`/${call.project_id}/threads/${encodeURIComponent(call.thread_id)}`}>{call.thread_id}</Link>
            </dd>
          </>
        )}
        <dt>Op</dt>
        <dd className="mono">{call.op_name}</dd>
        <dt>Call id</dt>
        <dd className="mono">{call.id}</dd>
      </dl>
      {call.exception && (
        <section>
          <h3>Exception</h3>
          <ExceptionView text={call.exception} />
        </section>
      )}
      <section>
        <h3>Inputs</h3>
        {inputMessages ? <ChatView messages={inputMessages} /> : <JsonView value={call.inputs} />}
      </section>
      <section>
        <h3>Output</h3>
        {outputMessages ? <ChatView messages={outputMessages} /> : <JsonView value={call.output ?? null} />}
      </section>
      <CallFeedback call={call} />
      {(summary.usage !== undefined || (summary.weave as { costs?: unknown } | undefined)?.costs !== undefined) && (
        <section>
          <h3>Usage and cost</h3>
          <UsageTable call={call} />
        </section>
      )}
      <section>
        <h3>Summary</h3>
        <FieldsTable label="Summary" value={summary} skip={inUsageTable} />
      </section>
      <section>
        <h3>Attributes</h3>
        <FieldsTable label="Attributes" value={call.attributes} />
      </section>
    </article>
  );
}
