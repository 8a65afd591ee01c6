// One scorer's field of the annotation form, labelled by the spec's name: a choice of options
// (an enum, a boolean, a whole-number scale), each with the number key that picks it, or a box
// to type a number or text in. Below it, what the reviewer submitted for this item before.
import { keyHints, type Scorer } from '../annotation-fields.ts';
import { formatTime } from '../call-facts.ts';

export interface Submitted {
  value: unknown;
  created_at: string;
}

interface Props {
  scorer: Scorer;
  /** Unique per field of the page: ids of the controls derive from it. */
  id: string;
  raw: string;
  error: string | undefined;
  submitted: Submitted | undefined;
  disabled: boolean;
  onChange: (raw: string) => void;
  onFocus: () => void;
}

/** The id of the radio of `raw` in field `id` (the form focuses it when a number key picks it). */
export const optionId = (id: string, raw: string) => `${id}-opt-${encodeURIComponent(raw)}`;

export function AnnotationField({ scorer, id, raw, error, submitted, disabled, onChange, onFocus }: Props) {
  const { field } = scorer;
  const notes = (
    <>
      {scorer.description && (
        <p id={`${id}-desc`} className="muted field-note">
          {scorer.description}
        </p>
      )}
      {error && (
        <p id={`${id}-err`} className="problem">
          {error}
        </p>
      )}
      {submitted && (
        <p className="muted field-note">
          You submitted <strong>{JSON.stringify(submitted.value)}</strong> on {formatTime(submitted.created_at)}.
        </p>
      )}
    </>
  );
  const describedBy = [scorer.description && `${id}-desc`, error && `${id}-err`].filter(Boolean).join(' ') || undefined;
  const hints = keyHints(field);
  const options =
    field.kind === 'enum'
      ? field.options
      : field.kind === 'boolean'
        ? [true, false]
        : field.kind === 'number' && field.integer && field.steps
          ? field.steps
          : undefined;

  if (options) {
    return (
      <fieldset
        className="field"
        role="radiogroup"
        aria-labelledby={`${id}-name`}
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
        onFocus={onFocus}
      >
        <legend id={`${id}-name`}>{scorer.name}</legend>
        <div className="options">
          {options.map((option) => {
            const text = String(option);
            const key = hints.find((h) => h.value === option)?.key;
            return (
              <label key={text} className="option">
                <input
                  type="radio"
                  id={optionId(id, text)}
                  name={id}
                  value={text}
                  checked={raw === text}
                  disabled={disabled}
                  aria-keyshortcuts={key}
                  onChange={() => onChange(text)}
                />
                {/* A scale picked by its own digits needs no key beside each value. */}
                {key !== undefined && key !== text && <kbd aria-hidden="true">{key}</kbd>}
                {text}
              </label>
            );
          })}
          {raw !== '' && !disabled && (
            // Out of the Tab order (Tab goes on to the next field); the keyboard clears with Backspace.
            <button type="button" className="link" tabIndex={-1} onClick={() => onChange('')} aria-label={`Clear ${scorer.name}`}>
              clear
            </button>
          )}
        </div>
        {notes}
      </fieldset>
    );
  }

  if (field.kind === 'unsupported') {
    return (
      <div className="field" onFocus={onFocus}>
        <span className="field-name">{scorer.name}</span>
        <p className="problem">{field.reason}</p>
      </div>
    );
  }

  const maxLength = field.kind === 'string' ? field.maxLength : undefined;
  const bounds =
    field.kind === 'number'
      ? [field.minimum !== undefined && `from ${field.minimum}`, field.maximum !== undefined && `to ${field.maximum}`]
          .filter(Boolean)
          .join(' ')
      : maxLength !== undefined
        ? `${[...raw].length} / ${maxLength} characters`
        : '';
  const common = {
    id: `${id}-input`,
    value: raw,
    disabled,
    'aria-describedby': describedBy,
    'aria-invalid': error ? true : undefined,
    onChange: (e: { target: { value: string } }) => onChange(e.target.value),
  };
  return (
    <div className="field" onFocus={onFocus}>
      <label className="field-name" htmlFor={`${id}-input`}>
        {scorer.name}
      </label>
      {field.kind === 'number' ? (
        <input
          {...common}
          type="number"
          inputMode={field.integer ? 'numeric' : 'decimal'}
          step={field.integer ? 1 : 'any'}
          min={field.minimum}
          max={field.maximum}
        />
      ) : maxLength !== undefined && maxLength <= 200 ? (
        <input {...common} type="text" />
      ) : (
        <textarea {...common} rows={3} aria-keyshortcuts="Control+Enter Meta+Enter" />
      )}
      {bounds && <span className="muted field-note">{bounds}</span>}
      {notes}
    </div>
  );
}
