// A JSON viewer that stays fast on large values: containers open lazily (only what is expanded is
// rendered), long lists and objects show 100 entries at a time, long strings are cut with a
// "show all" control.
import { useState } from 'react';

const CHUNK = 100;
const LONG_STRING = 2000;

export function JsonView({ value }: { value: unknown }) {
  return (
    <div className="json" role="group">
      <JsonNode value={value} open depth={0} />
    </div>
  );
}

function JsonNode({ name, value, open: initiallyOpen = false, depth }: { name?: string; value: unknown; open?: boolean; depth: number }) {
  const [open, setOpen] = useState(initiallyOpen || depth < 1);
  const [shown, setShown] = useState(CHUNK);
  const label = name === undefined ? null : <span className="json-key">{name}: </span>;
  if (value === null || typeof value !== 'object') {
    return (
      <div className="json-row">
        {label}
        <Scalar value={value} />
      </div>
    );
  }
  const entries: Array<[string, unknown]> = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  const brackets = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) {
    return (
      <div className="json-row">
        {label}
        <span className="muted">{brackets.join('')}</span>
      </div>
    );
  }
  return (
    <div className="json-row">
      <button type="button" className="json-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? '▾' : '▸'}
      </button>
      {label}
      <span className="muted">
        {brackets[0]}
        {!open && ` ${entries.length} ${Array.isArray(value) ? 'items' : 'keys'} ${brackets[1]}`}
      </span>
      {open && (
        <div className="json-children">
          {entries.slice(0, shown).map(([k, v]) => (
            <JsonNode key={k} name={k} value={v} depth={depth + 1} />
          ))}
          {entries.length > shown && (
            <button type="button" className="link" onClick={() => setShown(shown + CHUNK)}>
              Show {Math.min(CHUNK, entries.length - shown)} more of {entries.length - shown}
            </button>
          )}
          <span className="muted">{brackets[1]}</span>
        </div>
      )}
    </div>
  );
}

function Scalar({ value }: { value: unknown }) {
  const [all, setAll] = useState(false);
  if (typeof value !== 'string') return <span className={`json-${value === null ? 'null' : typeof value}`}>{String(value)}</span>;
  const cut = !all && value.length > LONG_STRING;
  return (
    <span className="json-string">
      “{cut ? value.slice(0, LONG_STRING) : value}”
      {cut && (
        <button type="button" className="link" onClick={() => setAll(true)}>
          show all {value.length} characters
        </button>
      )}
    </span>
  );
}
