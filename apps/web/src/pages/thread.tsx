// One conversation: its turn calls (those whose turn_id is their own id) in the order they started,
// each as what came in and what went out (chat messages as a conversation), with its status and
// latency and its trace one click away. Paged by 100 turns.
import { parseJsonLines } from '@weft/client';
import type { CallSchema, CallsStreamQueryReq } from '@weft/types';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { formatDuration, formatTime, latencyOf, opLabel, statusOf } from '../call-facts.ts';
import { ChatView, messagesOf } from '../components/chat-view.tsx';
import { ExceptionView } from '../components/exception-view.tsx';
import { JsonView } from '../components/json-view.tsx';
import { Pager } from '../components/pager.tsx';
import { ErrorView, Loading } from '../components/query-state.tsx';
import { StatusBadge } from '../components/status-badge.tsx';
import { useApi } from '../session.tsx';

const PAGE = 100;
// A turn call is its own turn (Weave's threads: id = turn_id). The spec types `$expr` as an open object.
const TURNS: { $expr: Record<string, unknown> } = { $expr: { $eq: [{ $getField: 'turn_id' }, { $getField: 'id' }] } };

export function ThreadPage() {
  const { entity, project, threadId } = useParams() as { entity: string; project: string; threadId: string };
  const projectId = `${entity}/${project}`;
  const [page, setPage] = useState(0);
  const { $api } = useApi();
  const body: CallsStreamQueryReq = {
    project_id: projectId,
    filter: { thread_ids: [threadId] },
    query: TURNS as CallsStreamQueryReq['query'],
    sort_by: [{ field: 'started_at', direction: 'asc' }],
    limit: PAGE + 1,
    offset: page * PAGE,
  };
  const turns = $api.useQuery(
    'post',
    '/calls/stream_query',
    { body, parseAs: 'text' },
    { select: (text) => parseJsonLines<CallSchema>(text) },
  );
  const shown = turns.data?.slice(0, PAGE) ?? [];
  return (
    <section>
      <p>
        <Link to={`/${entity}/${project}/threads`}>← Threads of {projectId}</Link>
      </p>
      <h1>
        Thread <span className="mono">{threadId}</span>
      </h1>
      {turns.isPending ? (
        <Loading what="the thread" />
      ) : turns.error ? (
        <ErrorView error={turns.error} />
      ) : shown.length === 0 ? (
        <p className="muted">No turn in this thread.</p>
      ) : (
        <>
          <ol className="turns" start={page * PAGE + 1} aria-label="Turns">
            {shown.map((call, i) => (
              <Turn key={call.id} call={call} n={page * PAGE + i + 1} projectPath={`/${entity}/${project}`} />
            ))}
          </ol>
          <Pager page={page} hasNext={(turns.data?.length ?? 0) > PAGE} onPage={setPage}>
            Page {page + 1} · turns {page * PAGE + 1}–{page * PAGE + shown.length}
          </Pager>
        </>
      )}
    </section>
  );
}

function Turn({ call, n, projectPath }: { call: CallSchema; n: number; projectPath: string }) {
  const input = messagesOf(call.inputs);
  const output = messagesOf(call.output);
  return (
    <li className="turn" aria-label={`Turn ${n}`}>
      <div className="row">
        <strong>Turn {n}</strong>
        <Link to={`${projectPath}/r/call/${call.id}`}>{opLabel(call)}</Link>
        <StatusBadge status={statusOf(call)} />
        <span className="muted">
          {formatTime(call.started_at)} · {formatDuration(latencyOf(call))}
        </span>
      </div>
      <div className="turn-io">
        <div>
          <h3>In</h3>
          {input ? <ChatView messages={input} /> : <JsonView value={call.inputs} />}
        </div>
        <div>
          <h3>Out</h3>
          {call.exception ? (
            <ExceptionView text={call.exception} />
          ) : output ? (
            <ChatView messages={output} />
          ) : (
            <JsonView value={call.output ?? null} />
          )}
        </div>
      </div>
    </li>
  );
}
