// The traces list's column picker: a menu of checkboxes (Weave's "Columns" button, Phoenix's
// column selector), opened from a button; the page keeps the choice in the URL. The boxes exist
// only while the menu is open, so their names ("Status") never shadow the filters' labels. Escape
// or a press outside closes it.
import { useCallback, useRef, useState } from 'react';
import { COLUMNS, type ColumnId } from '../traces-columns.ts';
import { useDismiss } from '../use-dismiss.ts';

interface Props {
  shown: ReadonlySet<ColumnId>;
  onToggle: (id: ColumnId, on: boolean) => void;
  onReset: () => void;
}

export function ColumnPicker({ shown, onToggle, onReset }: Props) {
  const [open, setOpen] = useState(false);
  const menu = useRef<HTMLDetailsElement>(null);
  const close = useCallback((how: 'escape' | 'outside') => {
    setOpen(false);
    if (how === 'escape') menu.current?.querySelector('summary')?.focus();
  }, []);
  useDismiss(menu, open, close);
  return (
    <details ref={menu} className="column-picker" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Columns ({shown.size})</summary>
      {open && (
        <fieldset>
          <legend>Shown columns</legend>
          {COLUMNS.map((c) => (
            <label key={c.id}>
              <input type="checkbox" checked={shown.has(c.id)} onChange={(e) => onToggle(c.id, e.target.checked)} /> {c.label}
            </label>
          ))}
          <button type="button" className="link" onClick={onReset}>
            Default columns
          </button>
        </fieldset>
      )}
    </details>
  );
}
