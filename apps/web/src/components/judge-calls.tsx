// Judge selected calls with one of the project's LLM-as-judge scorers (Weave's LLMAsAJudgeScorer
// objects): calls/score, 10,000 calls a request. The work is queued; the Judges page follows it.
import { useState } from 'react';
import { Link } from 'react-router';
import { READ_ONLY_NOTE, useApi, useReadOnly } from '../session.tsx';
import type { CallSelection } from './add-to-queue.tsx';
import { ErrorView } from './query-state.tsx';

const BATCH = 10_000;

export function JudgeCalls({ projectId, selection, onClose }: { projectId: string; selection: CallSelection; onClose: () => void }) {
  const { client, $api } = useApi();
  const [entity, project] = projectId.split('/') as [string, string];
  const readOnly = useReadOnly(entity);
  const scorers = $api.useQuery('post', '/objs/query', {
    body: {
      project_id: projectId,
      filter: { latest_only: true, leaf_object_classes: ['LLMAsAJudgeScorer'] },
      metadata_only: true,
      limit: 1000,
    },
  });
  const [choice, setChoice] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>();
  const [queued, setQueued] = useState<number>();

  const judge = async () => {
    const scorer = scorers.data?.objs.find((o) => o.object_id === choice);
    if (!scorer) return;
    setBusy(true);
    setFailure(undefined);
    try {
      const ids = await selection.ids();
      let total = 0;
      for (let i = 0; i < ids.length; i += BATCH) {
        const res = await client.POST('/calls/score', {
          body: {
            project_id: projectId,
            call_ids: ids.slice(i, i + BATCH),
            scorer_refs: [`weave:///${projectId}/object/${scorer.object_id}:${scorer.digest}`],
          },
        });
        total += res.queued;
      }
      setQueued(total);
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };
  const what = `${selection.count.toLocaleString()} call${selection.count === 1 ? '' : 's'}`;

  return (
    <div className="panel" role="dialog" aria-label="Judge with an LLM">
      <div className="row">
        <strong>Judge {what} with an LLM-as-judge scorer</strong>
        <button type="button" className="link" onClick={onClose}>
          Close
        </button>
      </div>
      {queued !== undefined ? (
        <p role="status">
          Queued {queued.toLocaleString()} judgement{queued === 1 ? '' : 's'}: follow them on{' '}
          <Link to={`/${entity}/${project}/judges`}>Judges</Link>.
        </p>
      ) : scorers.data && scorers.data.objs.length === 0 ? (
        <p className="muted">
          This project has no LLMAsAJudgeScorer object: publish one with Weave's SDK (weave.scorers.LLMAsAJudgeScorer).
        </p>
      ) : (
        <>
          <label>
            Scorer{' '}
            <select aria-label="Scorer" value={choice} onChange={(e) => setChoice(e.target.value)} disabled={busy}>
              <option value="">Choose a scorer…</option>
              {scorers.data?.objs.map((o) => (
                <option key={o.object_id} value={o.object_id}>
                  {o.object_id}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            disabled={!choice || busy || readOnly}
            title={readOnly ? READ_ONLY_NOTE : undefined}
            onClick={() => void judge()}
          >
            {busy ? 'Queuing…' : `Judge ${what}`}
          </button>
          {readOnly && <p className="muted">{READ_ONLY_NOTE}</p>}
        </>
      )}
      {scorers.error && <ErrorView error={scorers.error} />}
      {failure !== undefined && <ErrorView error={failure} />}
    </div>
  );
}
