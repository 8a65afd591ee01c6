// Create an annotation queue without leaving Studio: its name, description and scorers, picked from
// the project's AnnotationSpec objects or described here (each new one is published with
// obj/create, then the queue is created with every scorer's ref).
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { valueText } from '../feedback-facts.ts';
import { buildAnnotationSpec, emptyScorer, objectRef, type ScorerDraft } from '../scorer-draft.ts';
import { READ_ONLY_NOTE, useApi, useReadOnly } from '../session.tsx';
import { useAnnotationSpecs } from '../use-annotation-specs.ts';
import { ErrorView } from './query-state.tsx';
import { ScorerEditor } from './scorer-editor.tsx';

export function NewQueueForm({ projectId, onCreated }: { projectId: string; onCreated: (queueId: string, name: string) => void }) {
  const { client } = useApi();
  const queryClient = useQueryClient();
  const readOnly = useReadOnly(projectId.split('/')[0]);
  const { specs: existing } = useAnnotationSpecs(projectId);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [picked, setPicked] = useState<string[]>([]);
  const [drafts, setDrafts] = useState<ScorerDraft[]>([]);
  const [problem, setProblem] = useState<string>();
  const [failure, setFailure] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setProblem(undefined);
    setFailure(undefined);
    const built = drafts.map(buildAnnotationSpec);
    const bad = built.find((b) => !b.ok);
    if (bad && !bad.ok) return setProblem(bad.error);
    const names = built.map((b) => (b.ok ? b.val.name : ''));
    if (new Set(names).size !== names.length) return setProblem('Two new scorers have the same name.');
    setBusy(true);
    try {
      const refs = [...picked];
      for (const b of built) {
        if (!b.ok) continue;
        const created = await client.POST('/obj/create', { body: { obj: { project_id: projectId, object_id: b.val.name, val: b.val } } });
        refs.push(objectRef(projectId, b.val.name, created.digest));
      }
      const queue = await client.POST('/annotation_queues', {
        body: { project_id: projectId, name: name.trim(), description: description.trim(), scorer_refs: refs },
      });
      await queryClient.invalidateQueries();
      onCreated(queue.id, name.trim());
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="edit-form" onSubmit={(e) => void submit(e)} aria-label="New annotation queue">
      <label>
        Queue name
        <input required maxLength={1024} value={name} onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        Description
        <textarea rows={2} value={description} onChange={(e) => setDescription(e.target.value)} />
      </label>
      {existing.length > 0 && (
        <fieldset aria-label="Existing scorers">
          <legend>Scorers of this project</legend>
          {existing.map((o) => {
            const ref = objectRef(projectId, o.object_id, o.digest);
            return (
              <label key={ref} className="check">
                <input
                  type="checkbox"
                  checked={picked.includes(ref)}
                  onChange={(e) => setPicked(e.target.checked ? [...picked, ref] : picked.filter((r) => r !== ref))}
                />
                {o.object_id} <span className="muted">{schemaSummary(o.val)}</span>
              </label>
            );
          })}
        </fieldset>
      )}
      {drafts.map((draft, i) => (
        <ScorerEditor
          key={i}
          index={i}
          draft={draft}
          onChange={(next) => setDrafts(drafts.map((d, j) => (j === i ? next : d)))}
          onRemove={() => setDrafts(drafts.filter((_, j) => j !== i))}
        />
      ))}
      <div className="row">
        <button type="button" onClick={() => setDrafts([...drafts, emptyScorer()])}>
          Add a scorer
        </button>
        <button type="submit" disabled={busy || readOnly} title={readOnly ? READ_ONLY_NOTE : undefined}>
          {busy ? 'Creating…' : 'Create queue'}
        </button>
        {readOnly && <span className="muted"> {READ_ONLY_NOTE}</span>}
      </div>
      {problem && (
        <p role="alert" className="error">
          {problem}
        </p>
      )}
      {failure !== undefined && <ErrorView error={failure} />}
    </form>
  );
}

/** `integer 1–5`, `one of good, bad`, … from an AnnotationSpec's field_schema. */
function schemaSummary(val: unknown): string {
  const schema = (val as { field_schema?: Record<string, unknown> } | null)?.field_schema ?? {};
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((o) => valueText(o)).join(', ')}`;
  const { minimum, maximum } = schema;
  const range = typeof minimum === 'number' && typeof maximum === 'number' ? ` ${minimum}–${maximum}` : '';
  return `${typeof schema.type === 'string' ? schema.type : ''}${range}`;
}
