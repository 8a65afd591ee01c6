// A run's answer as it streams (one message per choice, with reasoning and tool calls), then what
// it took: latency, time to first token, tokens, cost, and the model and provider that served it.
import { Link } from 'react-router';
import { formatCost, formatDuration } from '../call-facts.ts';
import type { StreamedChoice } from '../playground/chat-stream.ts';
import type { ChatRun } from '../playground/use-chat-run.ts';
import { OpenAiErrorView } from './open-ai-error-view.tsx';

const STATUS: Record<ChatRun['status'], string> = {
  idle: '',
  running: 'Streaming…',
  done: 'Done',
  stopped: 'Stopped',
  failed: 'Failed',
};

export function RunResult({ run }: { run: ChatRun }) {
  if (run.status === 'idle') return null;
  const { stream } = run;
  const usage = stream.usage;
  return (
    <section className="run-result" aria-label="Answer">
      <h2>
        Answer{' '}
        <span role="status" className="muted">
          {STATUS[run.status]}
        </span>
      </h2>
      {run.error && <OpenAiErrorView error={run.error} status={run.httpStatus} />}
      <ol className="chat" aria-label="Streamed answer" aria-busy={run.status === 'running'}>
        {stream.choices.map((c) => (
          <ChoiceView key={c.index} choice={c} many={stream.choices.length > 1} />
        ))}
      </ol>
      <dl className="facts" aria-label="Run facts">
        <dt>Latency</dt>
        <dd>{formatDuration(run.latencyMs)}</dd>
        <dt>Time to first token</dt>
        <dd>{formatDuration(run.ttftMs)}</dd>
        <dt>Tokens</dt>
        <dd>{usage ? `${usage.prompt_tokens} in · ${usage.completion_tokens} out · ${usage.total_tokens} total` : '—'}</dd>
        <dt>Cost</dt>
        <dd>{formatCost(usage?.cost)}</dd>
        <dt>Served by</dt>
        <dd>{stream.model ? `${stream.model}${stream.provider ? ` via ${stream.provider}` : ''}` : '—'}</dd>
        {run.callId && (
          <>
            <dt>Recorded as</dt>
            <dd className="mono">{run.project ? <Link to={`/${run.project}/r/call/${run.callId}`}>{run.callId}</Link> : run.callId}</dd>
          </>
        )}
      </dl>
    </section>
  );
}

function ChoiceView({ choice, many }: { choice: StreamedChoice; many: boolean }) {
  return (
    <li className={`msg msg-${choice.role}`}>
      <span className="role">
        {choice.role}
        {many && ` · choice ${choice.index}`}
        {choice.finish_reason && ` · finish: ${choice.finish_reason}`}
      </span>
      {choice.reasoning && (
        <details>
          <summary>Reasoning</summary>
          <div className="content muted">{choice.reasoning}</div>
        </details>
      )}
      <div className="content">{choice.content}</div>
      {choice.refusal && <div className="content error">Refusal: {choice.refusal}</div>}
      {choice.tool_calls.length > 0 && <pre className="json">{JSON.stringify(choice.tool_calls, null, 2)}</pre>}
    </li>
  );
}
