// The call under review: the item's display fields first (the paths the queue's author chose),
// then the inputs and the output, conversations shown as chat; its trace one click away, in a
// new tab so the review keeps its place.
import type { AnnotationQueueItemSchema, CallSchema } from '@weft/types';
import { formatDuration, formatTime, latencyOf, opLabel, statusOf } from '../call-facts.ts';
import { valueAtPath } from '../review-queue.ts';
import { ChatView, messagesOf } from './chat-view.tsx';
import { JsonView } from './json-view.tsx';
import { StatusBadge } from './status-badge.tsx';

function Value({ value }: { value: unknown }) {
  const messages = messagesOf(value);
  if (messages) return <ChatView messages={messages} />;
  if (typeof value === 'string') return <div className="review-text">{value}</div>;
  return <JsonView value={value ?? null} />;
}

/** Whether a display field already shows part of `root` (then the whole of it starts folded). */
const shown = (fields: string[], root: string) => fields.some((f) => f === root || f.startsWith(`${root}.`));

function Whole({ title, value, folded }: { title: string; value: unknown; folded: boolean }) {
  if (!folded)
    return (
      <section>
        <h3>{title}</h3>
        <Value value={value} />
      </section>
    );
  return (
    <details className="whole">
      <summary>All {title.toLowerCase()}</summary>
      <Value value={value} />
    </details>
  );
}

export function ReviewCall({
  call,
  item,
  entity,
  project,
}: {
  call: CallSchema;
  item: AnnotationQueueItemSchema;
  entity: string;
  project: string;
}) {
  const root = { inputs: call.inputs, output: call.output, attributes: call.attributes, summary: call.summary } as Record<string, unknown>;
  return (
    <article className="review-call" aria-label="Call under review">
      <h2>
        {opLabel(call)} <StatusBadge status={statusOf(call)} />
      </h2>
      <p className="muted">
        {formatTime(call.started_at)} · {formatDuration(latencyOf(call))} ·{' '}
        <a href={`/${entity}/${project}/r/call/${call.id}`} target="_blank" rel="noopener noreferrer">
          Open the trace (new tab)
        </a>
      </p>
      {item.display_fields.map((path) => {
        const value = valueAtPath(root, path);
        return (
          <section key={path} className="display-field">
            <h3 className="mono">{path}</h3>
            {value === undefined ? <p className="muted">This call has no {path}.</p> : <Value value={value} />}
          </section>
        );
      })}
      {call.exception && (
        <section>
          <h3>Exception</h3>
          <pre className="exception">{call.exception}</pre>
        </section>
      )}
      <Whole title="Inputs" value={call.inputs} folded={shown(item.display_fields, 'inputs')} />
      <Whole title="Output" value={call.output ?? null} folded={shown(item.display_fields, 'output')} />
    </article>
  );
}
