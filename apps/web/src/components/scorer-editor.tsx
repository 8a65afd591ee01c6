// The editor of one new human-annotation scorer: its name, description and the kind of field a
// reviewer fills in (a number scale with bounds, a choice of labels, yes/no, or free text).
import type { FieldKind, ScorerDraft } from '../scorer-draft.ts';

const KINDS: Array<[FieldKind, string]> = [
  ['integer', 'Whole number (scale)'],
  ['number', 'Number'],
  ['enum', 'Choice of labels'],
  ['boolean', 'Yes / no'],
  ['text', 'Free text'],
];

export function ScorerEditor({
  draft,
  index,
  onChange,
  onRemove,
}: {
  draft: ScorerDraft;
  index: number;
  onChange: (next: ScorerDraft) => void;
  onRemove: () => void;
}) {
  const set = (key: keyof ScorerDraft) => (e: { target: { value: string } }) => onChange({ ...draft, [key]: e.target.value });
  const label = `New scorer ${index + 1}`;
  return (
    <fieldset className="scorer-editor" aria-label={label}>
      <legend>{label}</legend>
      <label>
        Scorer name <input required value={draft.name} onChange={set('name')} placeholder="e.g. quality" />
      </label>
      <label>
        Field
        <select aria-label="Field" value={draft.kind} onChange={set('kind')}>
          {KINDS.map(([kind, text]) => (
            <option key={kind} value={kind}>
              {text}
            </option>
          ))}
        </select>
      </label>
      {(draft.kind === 'integer' || draft.kind === 'number') && (
        <>
          <label>
            Minimum <input inputMode="decimal" value={draft.min} onChange={set('min')} />
          </label>
          <label>
            Maximum <input inputMode="decimal" value={draft.max} onChange={set('max')} />
          </label>
        </>
      )}
      {draft.kind === 'enum' && (
        <label className="wide">
          Options (one a line)
          <textarea rows={3} value={draft.options} onChange={set('options')} />
        </label>
      )}
      {draft.kind === 'text' && (
        <label>
          Longest answer <input inputMode="numeric" value={draft.maxLength} onChange={set('maxLength')} placeholder="no limit" />
        </label>
      )}
      <label className="wide">
        Guidance for reviewers <input value={draft.description} onChange={set('description')} />
      </label>
      <button type="button" onClick={onRemove}>
        Remove
      </button>
    </fieldset>
  );
}
