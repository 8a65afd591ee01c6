// Text search over one field of the traces' inputs or output, as Weave's `$contains`; applied on
// submit and kept in the URL by the page. The hint says what it costs: the store has no text index.
import { useState, type FormEvent } from 'react';

interface Props {
  text: string;
  field: string;
  /** The fields offered (traces-columns.ts searchFields). */
  fields: string[];
  onSearch: (text: string, field: string) => void;
}

export function TraceSearch({ text, field, fields, onSearch }: Props) {
  const [draft, setDraft] = useState(text);
  const [draftField, setDraftField] = useState(field);
  const chosen = draftField || fields[0] || '';
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSearch(draft.trim(), draft.trim() ? chosen : '');
  };
  return (
    <form className="filters trace-search" role="search" aria-label="Search traces" onSubmit={submit}>
      <label>
        Search <input type="search" value={draft} onChange={(e) => setDraft(e.target.value)} placeholder="text (any case)" />
      </label>
      <label>
        in
        <select aria-label="Search in" value={chosen} onChange={(e) => setDraftField(e.target.value)} disabled={fields.length === 0}>
          {fields.map((f) => (
            <option key={f} value={f}>
              {f}
            </option>
          ))}
        </select>
      </label>
      <button type="submit">Search</button>
      {text && (
        <button
          type="button"
          className="link"
          onClick={() => {
            setDraft('');
            onSearch('', '');
          }}
        >
          Clear search
        </button>
      )}
      <p className="muted hint">
        One field of the inputs or the output at a time: the database reads every trace the other filters leave (no text index over inputs),
        so narrow by op or time first on a large project.
      </p>
    </form>
  );
}
