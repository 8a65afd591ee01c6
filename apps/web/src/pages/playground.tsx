// The playground: pick a router model, write messages and parameters, run them through the router
// with the answer streamed. `?model=<id>` preselects a model; `?project=<entity/project>&call=<id>`
// replays a traced LLM call (its model, messages and parameters), recording into its project.
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { MessagesEditor } from '../components/messages-editor.tsx';
import { ModelPicker } from '../components/model-picker.tsx';
import { ParamsEditor } from '../components/params-editor.tsx';
import { ErrorView, Loading } from '../components/query-state.tsx';
import { RunResult } from '../components/run-result.tsx';
import { draftFromInputs, newDraft, requestOf, type Draft, type Problems } from '../playground/playground-draft.ts';
import { useChatRun } from '../playground/use-chat-run.ts';
import { READ_ONLY_NOTE, useApi, useReadOnly } from '../session.tsx';

export function PlaygroundPage() {
  const [search] = useSearchParams();
  const project = search.get('project');
  const callId = search.get('call');
  if (project && callId) return <FromCall key={`${project}/${callId}`} project={project} callId={callId} />;
  const model = search.get('model') ?? '';
  return <Playground key={model} initial={newDraft(model)} />;
}

function FromCall({ project, callId }: { project: string; callId: string }) {
  const { $api } = useApi();
  const { data, error, isPending } = $api.useQuery('post', '/call/read', { body: { project_id: project, id: callId } });
  if (isPending) return <Loading what="the call" />;
  if (error) return <ErrorView error={error} />;
  const draft = draftFromInputs(data.call.inputs, project);
  if (!draft) return <ErrorView error={{ reason: 'This call is not an LLM call: its inputs have no model and chat messages.' }} />;
  return <Playground initial={draft} from={{ project, callId }} />;
}

function Playground({ initial, from }: { initial: Draft; from?: { project: string; callId: string } }) {
  const { $api } = useApi();
  const models = $api.useQuery('get', '/inference/router/gateway/models');
  const [draft, setDraft] = useState(initial);
  const [problems, setProblems] = useState<Problems>({});
  const { run, start, stop } = useChatRun();
  // A completion through the router records a call in the project (the key's default without
  // one): a write there.
  const readOnly = useReadOnly(draft.project.trim().split('/')[0] || undefined);
  const edit = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const request = requestOf(draft);
    setProblems(request.problems ?? {});
    if (request.body) start(request.body, draft.project.trim() || undefined);
  };

  return (
    <section className="playground">
      <h1>Playground</h1>
      {from && (
        <p className="muted">
          From <Link to={`/${from.project}/r/call/${from.callId}`}>a call in {from.project}</Link>
          {draft.notCarried.length > 0 && ` · not carried over: ${draft.notCarried.join(', ')}`}
        </p>
      )}
      <div className="split">
        <form className="edit-form" aria-label="Playground" onSubmit={onSubmit}>
          {models.isPending ? (
            <Loading what="the models" />
          ) : models.error ? (
            <ErrorView error={models.error} />
          ) : (
            <ModelPicker models={models.data.data} value={draft.model} onChange={(model) => edit({ model })} problem={problems.model} />
          )}
          <MessagesEditor messages={draft.messages} onChange={(messages) => edit({ messages })} problem={problems.messages} />
          <ParamsEditor params={draft.params} onChange={(params) => edit({ params })} problems={problems} />
          <label>
            Record in project
            <input
              placeholder="entity/project (default: your entity's router project)"
              value={draft.project}
              onChange={(e) => edit({ project: e.target.value })}
            />
            {problems.project && <span className="problem">{problems.project}</span>}
          </label>
          <div className="actions">
            <button type="submit" disabled={run.status === 'running' || readOnly} title={readOnly ? READ_ONLY_NOTE : undefined}>
              Run
            </button>
            <button type="button" onClick={stop} disabled={run.status !== 'running'}>
              Stop
            </button>
            {readOnly && <span className="muted">{READ_ONLY_NOTE}</span>}
          </div>
        </form>
        <RunResult run={run} />
      </div>
    </section>
  );
}
