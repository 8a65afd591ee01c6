// Turn selected calls into dataset rows: a new dataset or a new version of an existing one, each
// row the call's inputs, optionally its output as expected_output, and its source call's ref
// (datasets-from-calls.ts).
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { addCallsToDataset } from '../datasets-from-calls.ts';
import { READ_ONLY_NOTE, useApi, useReadOnly } from '../session.tsx';
import type { CallSelection } from './add-to-queue.tsx';
import { ErrorView } from './query-state.tsx';

const NEW = '__new__';
const NAME = /^[\p{L}\p{N}_.-]{1,128}$/u;

export function AddToDataset({ projectId, selection, onClose }: { projectId: string; selection: CallSelection; onClose: () => void }) {
  const { client, $api } = useApi();
  const queryClient = useQueryClient();
  const [entity, project] = projectId.split('/') as [string, string];
  const readOnly = useReadOnly(entity);
  const datasets = $api.useQuery('post', '/objs/query', {
    body: { project_id: projectId, filter: { base_object_classes: ['Dataset'], latest_only: true }, limit: 1000 },
  });
  const [choice, setChoice] = useState('');
  const [name, setName] = useState('');
  const [withOutput, setWithOutput] = useState(true);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>();
  const [done, setDone] = useState<{ name: string; rows: number }>();
  const existing = datasets.data?.objs.find((o) => o.object_id === choice);
  const targetName = choice === NEW ? name.trim() : choice;
  const nameProblem =
    choice === NEW && name.trim() !== '' && !NAME.test(name.trim()) ? "1–128 letters, digits, '_', '.' or '-'" : undefined;

  const add = async () => {
    setBusy(true);
    setFailure(undefined);
    try {
      const ids = await selection.ids();
      const res = await addCallsToDataset(client, projectId, ids, { name: targetName, existing: existing?.val }, withOutput);
      setDone({ name: targetName, rows: res.rows });
      await queryClient.invalidateQueries();
    } catch (error) {
      setFailure(error instanceof Error && !('body' in error) ? { reason: error.message } : error);
    } finally {
      setBusy(false);
    }
  };
  const what = `${selection.count.toLocaleString()} call${selection.count === 1 ? '' : 's'}`;
  return (
    <div className="panel" role="dialog" aria-label="Add to dataset">
      <div className="row">
        <strong>Add {what} to a dataset</strong>
        <button type="button" className="link" onClick={onClose}>
          Close
        </button>
      </div>
      {done ? (
        <p role="status">
          Added {done.rows.toLocaleString()} rows to <Link to={`/${entity}/${project}/objects/${done.name}`}>{done.name}</Link>.
        </p>
      ) : (
        <>
          <div className="row">
            <select aria-label="Dataset" value={choice} onChange={(e) => setChoice(e.target.value)} disabled={busy}>
              <option value="">Choose a dataset…</option>
              {datasets.data?.objs.map((o) => (
                <option key={o.object_id} value={o.object_id}>
                  {o.object_id}
                </option>
              ))}
              <option value={NEW}>New dataset…</option>
            </select>
            {choice === NEW && (
              <input aria-label="Dataset name" placeholder="e.g. support-cases" value={name} onChange={(e) => setName(e.target.value)} />
            )}
            <label className="check">
              <input type="checkbox" checked={withOutput} onChange={(e) => setWithOutput(e.target.checked)} />
              Each call's output as expected_output
            </label>
          </div>
          {nameProblem && <p className="muted">Dataset name: {nameProblem}</p>}
          <div className="row">
            <button
              type="button"
              disabled={busy || readOnly || targetName === '' || nameProblem !== undefined}
              title={readOnly ? READ_ONLY_NOTE : undefined}
              onClick={() => void add()}
            >
              {busy ? 'Adding…' : `Add ${what}`}
            </button>
            <span className="muted">Each row keeps its call's ref in source_call_ref.</span>
          </div>
          {readOnly && <p className="muted">{READ_ONLY_NOTE}</p>}
        </>
      )}
      {datasets.error && <ErrorView error={datasets.error} />}
      {failure !== undefined && <ErrorView error={failure} />}
    </div>
  );
}
