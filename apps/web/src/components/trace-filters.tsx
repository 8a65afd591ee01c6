// The traces page's filters: op and thread (CallsFilter), status, start time and an annotation
// score (the query language, traces-query.ts). Applied together, kept in the URL by the page.
import { useState, type FormEvent } from 'react';
import { formatScore, isoToLocal, localToIso, parseScore, SCORE_OPS, type ScoreOp } from '../traces-query.ts';

export interface TraceFilterValues {
  op: string;
  thread: string;
  status: string;
  from: string;
  to: string;
  /** `<annotation name><op><value>` (traces-query.ts parseScore), '' for none. */
  score: string;
}

interface Props {
  values: TraceFilterValues;
  /** The project's ops (their refs, every version: `…/op/<name>:*`), offered for the op filter. */
  ops: string[];
  /** The project's annotation fields, offered for the score filter. */
  scoreNames: string[];
  onApply: (v: TraceFilterValues) => void;
}

export function TraceFilters({ values, ops, scoreNames, onApply }: Props) {
  const initialScore = parseScore(values.score) ?? { name: '', op: '>=' as ScoreOp, value: '' };
  const [draft, setDraft] = useState({ ...values, from: isoToLocal(values.from), to: isoToLocal(values.to) });
  const [score, setScore] = useState(initialScore);
  const set = (key: keyof TraceFilterValues) => (e: { target: { value: string } }) => setDraft({ ...draft, [key]: e.target.value });
  const names = [...new Set([...scoreNames, ...(initialScore.name ? [initialScore.name] : [])])];
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply({
      score: score.name && score.value.trim() !== '' ? formatScore({ ...score, value: score.value.trim() }) : '',
      op: draft.op.trim(),
      thread: draft.thread.trim(),
      status: draft.status,
      from: localToIso(draft.from),
      to: localToIso(draft.to),
    });
  };
  return (
    <form className="filters" onSubmit={submit} aria-label="Filters">
      <label>
        Op <input value={draft.op} onChange={set('op')} list="trace-ops" placeholder="op name or ref (ref:* for every version)" />
      </label>
      <datalist id="trace-ops">
        {ops.map((ref) => (
          <option key={ref} value={ref}>
            {/\/op\/([^:]+)/.exec(ref)?.[1] ?? ref}
          </option>
        ))}
      </datalist>
      <label>
        Thread <input value={draft.thread} onChange={set('thread')} placeholder="thread id" />
      </label>
      <label>
        Status
        <select value={draft.status} onChange={set('status')}>
          <option value="">any</option>
          <option value="success">success</option>
          <option value="error">error</option>
          <option value="running">running</option>
          <option value="descendant_error">child error</option>
        </select>
      </label>
      <label>
        Started from <input type="datetime-local" value={draft.from} onChange={set('from')} />
      </label>
      <label>
        to <input type="datetime-local" value={draft.to} onChange={set('to')} />
      </label>
      {names.length > 0 && (
        <div className="score-filter" role="group" aria-label="Score filter">
          <label>
            Score
            <select aria-label="Score" value={score.name} onChange={(e) => setScore({ ...score, name: e.target.value })}>
              <option value="">any</option>
              {names.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
          <select aria-label="Comparison" value={score.op} onChange={(e) => setScore({ ...score, op: e.target.value as ScoreOp })}>
            {SCORE_OPS.map((op) => (
              <option key={op} value={op}>
                {op === '>=' ? '≥' : op === '<=' ? '≤' : op}
              </option>
            ))}
          </select>
          <input aria-label="Score value" size={8} value={score.value} onChange={(e) => setScore({ ...score, value: e.target.value })} />
        </div>
      )}
      <button type="submit">Apply</button>
    </form>
  );
}
