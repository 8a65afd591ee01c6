// The traces page's filters: op and thread (CallsFilter), status and start time (the query
// language, traces-query.ts). Applied together, kept in the URL by the page.
import { useState, type FormEvent } from 'react';
import { isoToLocal, localToIso } from '../traces-query.ts';

export interface TraceFilterValues {
  op: string;
  thread: string;
  status: string;
  from: string;
  to: string;
}

export function TraceFilters({ values, onApply }: { values: TraceFilterValues; onApply: (v: TraceFilterValues) => void }) {
  const [draft, setDraft] = useState({ ...values, from: isoToLocal(values.from), to: isoToLocal(values.to) });
  const set = (key: keyof TraceFilterValues) => (e: { target: { value: string } }) => setDraft({ ...draft, [key]: e.target.value });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply({
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
        Op <input value={draft.op} onChange={set('op')} placeholder="op name or ref (ref:* for every version)" />
      </label>
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
      <button type="submit">Apply</button>
    </form>
  );
}
