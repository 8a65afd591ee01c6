// A trace's calls as a tree with a timeline bar per call. Virtualised (a trace of thousands of
// calls keeps only the rows in view in the page) and keyboard-driven as the WAI-ARIA tree pattern:
// ↑/↓ move the selection, → expands or goes to the first child, ← collapses or goes to the parent,
// Home/End jump. The selection is the URL's call, so every move is a link that can be shared; each
// row's name is a real link (`<a href>`) to its call, so it opens in a new tab and can be copied.
// An icon before the name tells LLM calls, tools, agents, retrievers and evaluations apart.
import { useVirtualizer } from '@tanstack/react-virtual';
import type { CallSchema } from '@weft/types';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { formatDuration, latencyOf, opLabel, statusOf } from '../call-facts.ts';
import { callKind } from '../call-kind.ts';
import { buildTree, timeline, type CallNode, type Span } from '../call-tree.ts';
import { KindIcon } from './kind-icon.tsx';
import { StatusBadge } from './status-badge.tsx';

const ROW_PX = 30;
/** Traces up to this many visible rows render every row (virtualising them saves nothing). */
const VIRTUAL_FROM = 300;

/** Display order, skipping the children of collapsed calls. */
function visibleRows(roots: CallNode[], collapsed: ReadonlySet<string>): CallNode[] {
  const rows: CallNode[] = [];
  const stack = [...roots].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    rows.push(node);
    if (!collapsed.has(node.call.id)) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  }
  return rows;
}

interface TraceTreeProps {
  calls: CallSchema[];
  selectedId: string;
  /** The app's path of a call's page (its row's link). */
  hrefOf: (id: string) => string;
  onSelect: (id: string) => void;
}

export function TraceTree({ calls, selectedId, hrefOf, onSelect }: TraceTreeProps) {
  const roots = useMemo(() => buildTree(calls), [calls]);
  const spanOf = useMemo(() => timeline(calls), [calls]);
  const parentOf = useMemo(() => new Map(calls.map((c) => [c.id, c.parent_id])), [calls]);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const rows = useMemo(() => visibleRows(roots, collapsed), [roots, collapsed]);
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_PX,
    overscan: 15,
  });
  // A row set that changes without a scroll or resize (expanding a call) must be laid out again:
  // without this the virtualizer could keep the previous range until something else re-rendered.
  useEffect(() => virtualizer.measure(), [rows, virtualizer]);
  const virtual = rows.length > VIRTUAL_FROM;
  const shown = virtual
    ? virtualizer.getVirtualItems().map((item) => ({ index: item.index, top: item.start }))
    : rows.map((_, index) => ({ index, top: undefined }));
  const selectedIndex = rows.findIndex((r) => r.call.id === selectedId);
  useEffect(() => {
    if (virtual && selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' });
  }, [virtual, selectedIndex, virtualizer]);

  // Where the keyboard is: ahead of the URL while a navigation renders, so fast keys never act on
  // the previous call.
  const cursor = useRef(selectedId);
  useEffect(() => {
    cursor.current = selectedId;
  }, [selectedId]);
  const select = (id: string) => {
    cursor.current = id;
    onSelect(id);
  };

  const setOpen = (id: string, open: boolean) => {
    const next = new Set(collapsed);
    if (open) next.delete(id);
    else next.add(id);
    setCollapsed(next);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const index = rows.findIndex((r) => r.call.id === cursor.current);
    const node = rows[index];
    if (!node) return;
    const go = (i: number) => rows[i] && select(rows[i].call.id);
    const isOpen = node.children.length > 0 && !collapsed.has(node.call.id);
    const actions: Record<string, () => void> = {
      ArrowDown: () => go(index + 1),
      ArrowUp: () => go(index - 1),
      Home: () => go(0),
      End: () => go(rows.length - 1),
      ArrowRight: () => (isOpen ? go(index + 1) : node.children.length > 0 && setOpen(node.call.id, true)),
      ArrowLeft: () => {
        const parent = parentOf.get(node.call.id);
        if (isOpen) setOpen(node.call.id, false);
        else if (parent && parentOf.has(parent)) select(parent);
      },
    };
    const action = actions[e.key];
    if (!action) return;
    e.preventDefault();
    action();
  };

  return (
    <div ref={scroller} className="tree-scroll">
      <ul
        role="tree"
        aria-label="Calls of the trace"
        aria-activedescendant={selectedIndex >= 0 ? `call-${selectedId}` : undefined}
        tabIndex={0}
        onKeyDown={onKeyDown}
        className={virtual ? 'call-tree virtual' : 'call-tree'}
        style={virtual ? { height: `${virtualizer.getTotalSize()}px` } : undefined}
      >
        {shown.map((item) => {
          const node = rows[item.index]!;
          return (
            <TreeRow
              key={node.call.id}
              node={node}
              span={spanOf(node.call)}
              top={item.top}
              selected={node.call.id === selectedId}
              href={hrefOf(node.call.id)}
              collapsed={collapsed.has(node.call.id)}
              onToggle={() => setOpen(node.call.id, collapsed.has(node.call.id))}
              onFollow={() => {
                cursor.current = node.call.id;
              }}
            />
          );
        })}
      </ul>
    </div>
  );
}

interface TreeRowProps {
  node: CallNode;
  span: Span;
  /** Its offset in a virtualised tree; undefined in a plain one. */
  top: number | undefined;
  selected: boolean;
  href: string;
  collapsed: boolean;
  onToggle: () => void;
  /** The row's link was followed in this tab: the keyboard continues from it. */
  onFollow: () => void;
}

function TreeRow({ node, span, top, selected, href, collapsed, onToggle, onFollow }: TreeRowProps) {
  const { call } = node;
  const status = statusOf(call);
  return (
    <li
      id={`call-${call.id}`}
      role="treeitem"
      aria-level={node.depth + 1}
      aria-selected={selected}
      aria-expanded={node.children.length > 0 ? !collapsed : undefined}
      className={selected ? 'selected' : undefined}
      style={top === undefined ? undefined : { transform: `translateY(${top}px)`, height: `${ROW_PX}px` }}
    >
      <div className="tree-row" style={{ paddingLeft: `${node.depth * 16}px` }}>
        {node.children.length > 0 ? (
          <button type="button" tabIndex={-1} className="toggle" aria-label={collapsed ? 'Expand' : 'Collapse'} onClick={onToggle}>
            {collapsed ? '▸' : '▾'}
          </button>
        ) : (
          <span className="toggle" />
        )}
        <KindIcon kind={callKind(call)} />
        {/* Out of the tab order: the tree is one stop, moved through with the arrow keys. */}
        <Link
          to={href}
          replace
          tabIndex={-1}
          className="call-name"
          onClick={(e) => {
            // A click with a modifier opens another tab or window; this one stays where it is.
            if (e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey) onFollow();
          }}
        >
          {opLabel(call)}
        </Link>
        {status !== 'success' && <StatusBadge status={status} />}
        <span className="muted num">{formatDuration(latencyOf(call))}</span>
      </div>
      <div className="bar-track" aria-hidden="true">
        <div className={`bar bar-${status}`} style={{ marginLeft: `${span.left * 100}%`, width: `max(2px, ${span.width * 100}%)` }} />
      </div>
    </li>
  );
}
