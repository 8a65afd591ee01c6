// The scorer fields of one queue item as a form (one field per annotation spec), with Submit and
// Skip. Values are checked here as the server will check them before anything is sent; what the
// server still refuses is shown with its reason, and the form keeps what was typed. The page's
// keyboard reaches the form through `handle` (pick a value by number key, submit, skip, focus).
import { useEffect, useId, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { parseValue, valueForKey, type FieldValue, type Scorer } from '../annotation-fields.ts';
import { READ_ONLY_NOTE } from '../session.tsx';
import { AnnotationField, optionId, type Submitted } from './annotation-field.tsx';
import { RefusalView } from './refusal-view.tsx';

export interface AnnotationFormHandle {
  pick: (key: string) => void;
  clear: () => void;
  submit: () => void;
  skip: () => void;
  focus: () => void;
}

export interface FilledField {
  scorer: Scorer;
  value: FieldValue;
}

interface Props {
  scorers: Scorer[];
  /** The form's starting text by scorer ref (the reviewer's earlier values). */
  initial: Record<string, string>;
  submitted: Record<string, Submitted>;
  readOnly: boolean;
  busy: boolean;
  /** The server's refusal of the last submit or skip, if any. */
  refusal: unknown;
  /** Errors the server attached to fields (by scorer ref), from a 422's `detail`. */
  serverErrors: Record<string, string>;
  onSubmit: (filled: FilledField[]) => void;
  onSkip: () => void;
  handle: Ref<AnnotationFormHandle>;
}

export function AnnotationForm({ scorers, initial, submitted, readOnly, busy, refusal, serverErrors, onSubmit, onSkip, handle }: Props) {
  const base = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [raw, setRaw] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const current = useRef(0);
  const fieldId = (i: number) => `${base}-f${i}`;

  const focusField = (i: number, value?: string) => {
    const root = formRef.current;
    if (!root) return;
    const target =
      (value !== undefined ? root.ownerDocument.getElementById(optionId(fieldId(i), value)) : null) ??
      root.ownerDocument.getElementById(`${fieldId(i)}-input`) ??
      root.querySelector<HTMLElement>(`[name="${fieldId(i)}"]`);
    target?.focus();
  };

  const set = (ref: string, text: string) => {
    setRaw((r) => ({ ...r, [ref]: text }));
    setErrors(({ [ref]: _, ...rest }) => rest);
    setFormError(undefined);
  };

  const submit = () => {
    if (readOnly || busy) return;
    const found: Record<string, string> = {};
    const filled: FilledField[] = [];
    for (const scorer of scorers) {
      const parsed = parseValue(scorer.field, raw[scorer.ref] ?? '');
      if (!parsed.ok) found[scorer.ref] = parsed.error;
      else if (parsed.value !== undefined) filled.push({ scorer, value: parsed.value });
    }
    setErrors(found);
    const firstBad = scorers.findIndex((s) => found[s.ref] !== undefined);
    if (firstBad !== -1) {
      focusField(firstBad);
      return;
    }
    if (filled.length === 0) {
      setFormError('Fill in at least one field, or skip the item.');
      return;
    }
    onSubmit(filled);
  };

  // A new item's form takes the focus, so the keyboard works on it at once.
  useEffect(() => formRef.current?.focus({ preventScroll: true }), []);

  useImperativeHandle(handle, () => ({
    pick(key) {
      const i = current.current;
      const scorer = scorers[i];
      if (!scorer || readOnly) return;
      const value = valueForKey(scorer.field, key);
      if (value === undefined) return;
      set(scorer.ref, String(value));
      focusField(i, String(value));
    },
    clear() {
      const scorer = scorers[current.current];
      if (scorer && !readOnly) set(scorer.ref, '');
    },
    submit,
    skip() {
      if (!readOnly && !busy) onSkip();
    },
    focus() {
      formRef.current?.focus({ preventScroll: true });
    },
  }));

  return (
    <form
      ref={formRef}
      className="annotate"
      aria-label="Annotate item"
      tabIndex={-1}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      {scorers.length === 0 && (
        <p className="muted">This queue has no scorers: there is nothing to fill in. Skip the item or add scorers to the queue.</p>
      )}
      {scorers.map((scorer, i) => (
        <AnnotationField
          key={scorer.ref}
          scorer={scorer}
          id={fieldId(i)}
          raw={raw[scorer.ref] ?? ''}
          error={errors[scorer.ref] ?? serverErrors[scorer.ref]}
          submitted={submitted[scorer.ref]}
          disabled={readOnly}
          onChange={(text) => set(scorer.ref, text)}
          onFocus={() => {
            current.current = i;
          }}
        />
      ))}
      {formError && (
        <p role="alert" className="problem">
          {formError}
        </p>
      )}
      {refusal !== undefined && <RefusalView error={refusal} />}
      <div className="actions">
        <button
          type="submit"
          disabled={readOnly || busy || scorers.length === 0}
          aria-keyshortcuts="Enter"
          title={readOnly ? READ_ONLY_NOTE : undefined}
        >
          Submit
        </button>
        <button
          type="button"
          onClick={onSkip}
          disabled={readOnly || busy}
          aria-keyshortcuts="S"
          title={readOnly ? READ_ONLY_NOTE : undefined}
        >
          Skip
        </button>
        {busy && (
          <span className="muted" aria-live="polite">
            Saving…
          </span>
        )}
      </div>
      {readOnly && <p className="muted">{READ_ONLY_NOTE}</p>}
    </form>
  );
}
