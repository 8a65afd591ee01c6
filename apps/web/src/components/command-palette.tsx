// Cmd-K (Ctrl-K elsewhere): one box to go anywhere — a project, an op, a dataset or object of the
// current project, a call by its id (palette-items.ts decides what matches). A modal <dialog>: the
// focus stays in it, Escape closes it; arrows move through the results, Enter opens one.
import { useDeferredValue, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { looksLikeCallId, paletteItems } from '../palette-items.ts';
import { useApi } from '../session.tsx';

export function CommandPalette({ projectId }: { projectId: string | undefined }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.metaKey || e.ctrlKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setOpen(true);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  useEffect(() => {
    if (open && !dialog.current?.open) dialog.current?.showModal();
  }, [open]);
  return (
    <>
      <button type="button" className="link" aria-keyshortcuts="Control+K Meta+K" onClick={() => setOpen(true)}>
        Find <kbd>⌘K</kbd>
      </button>
      <dialog ref={dialog} className="palette" aria-label="Go to" onClose={() => setOpen(false)}>
        {open && <PaletteBody projectId={projectId} close={() => dialog.current?.close()} />}
      </dialog>
    </>
  );
}

function PaletteBody({ projectId, close }: { projectId: string | undefined; close: () => void }) {
  const { $api } = useApi();
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const query = useDeferredValue(text.trim());
  const projects = $api.useQuery('get', '/projects');
  const objects = $api.useQuery(
    'post',
    '/objs/query',
    { body: { project_id: projectId ?? '', filter: { latest_only: true }, metadata_only: true, limit: 1000 } },
    { enabled: projectId !== undefined },
  );
  const isId = projectId !== undefined && looksLikeCallId(query);
  const call = $api.useQuery('post', '/call/read', { body: { project_id: projectId ?? '', id: query } }, { enabled: isId, retry: false });
  const items =
    query === ''
      ? []
      : paletteItems(query, {
          projects: projects.data?.projects.map((p) => p.project_id) ?? [],
          objects: objects.data?.objs ?? [],
          projectId,
          call: isId && call.data?.call ? call.data.call : undefined,
        });
  const chosen = Math.min(active, Math.max(0, items.length - 1));
  const go = (href: string) => {
    close();
    void navigate(href);
  };
  const onKey = (e: React.KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((chosen + step + items.length) % Math.max(1, items.length));
    } else if (e.key === 'Enter' && items[chosen]) {
      e.preventDefault();
      go(items[chosen].href);
    }
  };
  return (
    <>
      <input
        autoFocus
        role="combobox"
        aria-label="Go to"
        aria-expanded={items.length > 0}
        aria-controls="palette-results"
        aria-activedescendant={items.length > 0 ? `palette-${chosen}` : undefined}
        placeholder={projectId ? `Projects, and ops, datasets, objects or a call id in ${projectId}` : 'Projects'}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKey}
      />
      <ul id="palette-results" role="listbox" aria-label="Results">
        {items.map((item, i) => (
          <li
            key={`${item.group} ${item.href}`}
            id={`palette-${i}`}
            role="option"
            aria-selected={i === chosen}
            onMouseEnter={() => setActive(i)}
            onClick={() => go(item.href)}
          >
            <span className="muted">{item.group}</span> {item.label}
          </li>
        ))}
      </ul>
      {query !== '' && items.length === 0 && <p className="muted">Nothing matches “{query}”.</p>}
    </>
  );
}
