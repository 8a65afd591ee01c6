// The table viewer's search (kept in the URL as `q`) and jump to a row by its index.
import { useState } from 'react';
import { rowIndexOf } from '../dataset-search.ts';

interface TableToolbarProps {
  search: string;
  rowCount: number;
  onSearch: (text: string) => void;
  onJump: (index: number) => void;
}

export function TableToolbar({ search, rowCount, onSearch, onJump }: TableToolbarProps) {
  const [text, setText] = useState(search);
  // The box follows the URL's search when it changes (Clear, back and forward). Not by remounting
  // on `search`: that also emptied the row number being typed, and a jump typed just after a Clear
  // was lost.
  const [shown, setShown] = useState(search);
  if (shown !== search) {
    setShown(search);
    setText(search);
  }
  const [jump, setJump] = useState('');
  const target = rowIndexOf(jump, rowCount);
  return (
    <div className="filters">
      <form
        role="search"
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          onSearch(text);
        }}
      >
        <label>
          Search rows
          <input type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="text in any column" />
        </label>
        <button type="submit">Search</button>
        {search !== '' && (
          <button
            type="button"
            onClick={() => {
              setText('');
              onSearch('');
            }}
          >
            Clear
          </button>
        )}
      </form>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          if (target !== undefined) onJump(target);
        }}
      >
        <label>
          Jump to row
          <input type="number" min={0} max={Math.max(0, rowCount - 1)} value={jump} onChange={(e) => setJump(e.target.value)} />
        </label>
        <button
          type="submit"
          disabled={target === undefined}
          title={target === undefined ? `A row number from 0 to ${rowCount - 1}` : undefined}
        >
          Go
        </button>
      </form>
    </div>
  );
}
