// The list of the review workspace's keyboard shortcuts (the `?` key), closed by Escape or Close.
import { useEffect, useRef } from 'react';
import { SHORTCUTS } from '../review-shortcuts.ts';

export function ShortcutHelp({ onClose }: { onClose: () => void }) {
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => close.current?.focus(), []);
  return (
    <div role="dialog" aria-label="Keyboard shortcuts" className="shortcut-help">
      <h2>Keyboard shortcuts</h2>
      <table className="grid">
        <tbody>
          {SHORTCUTS.map(([keys, what]) => (
            <tr key={keys}>
              <th scope="row">
                <kbd>{keys}</kbd>
              </th>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" ref={close} onClick={onClose}>
        Close
      </button>
    </div>
  );
}
