// A table's rows (a dataset, a log's trajectories) with virtual scrolling: only the rows in view
// are in the page, fetched 100 at a time as they scroll in, so a 1,000,000-row table scrolls like a
// small one. Clicking a column header sorts by it (table/query's dot paths), then reverses. A
// dataset opened from its object is titled by the object's name and version (`?object=&v=`).
// Search (`?q=`) lists the rows containing a text (use-row-search.ts); jump to row scrolls to an
// index; a row's number opens it whole in a drawer (`?row=`); long rows expand in place.
import { useQueries } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { TableRowSchema } from '@weft/types';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { ErrorView, Loading } from '../components/query-state.tsx';
import { RowDrawer } from '../components/row-drawer.tsx';
import { TableToolbar } from '../components/table-toolbar.tsx';
import { MAX_MATCHES, SCAN_LIMIT, searchNeedle } from '../dataset-search.ts';
import { useApi } from '../session.tsx';
import { cellText, columnsOf, valueAt } from '../table-columns.ts';
import { useRowSearch } from '../use-row-search.ts';

const PAGE = 100;
const ROW_PX = 32;
/** A row with a cell longer than this offers to expand. */
const LONG_CELL = 60;

export function TablePage() {
  const { entity, project, digest } = useParams() as { entity: string; project: string; digest: string };
  const projectId = `${entity}/${project}`;
  const [params, setParams] = useSearchParams();
  const sort = params.get('sort') ?? '';
  const order: 'asc' | 'desc' = params.get('order') === 'desc' ? 'desc' : 'asc';
  const search = params.get('q') ?? '';
  const needle = searchNeedle(search);
  const drawerRow = params.get('row');
  const { $api } = useApi();
  const stats = $api.useQuery('post', '/table/query_stats', { body: { project_id: projectId, digest } });
  const count = stats.data?.count ?? 0;
  const sortBy = sort ? [{ field: sort, order }] : undefined;
  const found = useRowSearch({ projectId, digest, sortBy, needle, rowCount: count });
  const shownCount = needle ? found.matches.length : count;
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set());
  const [jumped, setJumped] = useState<number>();

  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: shownCount,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_PX,
    overscan: 20,
  });
  // The row count arrives after the first render: lay the list out again when it does.
  useEffect(() => virtualizer.measure(), [shownCount, virtualizer]);
  const items = virtualizer.getVirtualItems();
  // The pages the rows in view fall in (and the first page, which names the columns).
  const pages = useMemo(() => {
    const set = new Set<number>([0]);
    for (const item of items) set.add(Math.floor(item.index / PAGE));
    return [...set].filter((p) => p * PAGE < Math.max(count, 1));
  }, [items, count]);
  const pageQueries = useQueries({
    queries: (needle ? [] : pages).map((page) =>
      $api.queryOptions(
        'post',
        '/table/query',
        { body: { project_id: projectId, digest, limit: PAGE, offset: page * PAGE, ...(sortBy ? { sort_by: sortBy } : {}) } },
        { staleTime: Infinity, enabled: stats.isSuccess },
      ),
    ),
  });
  const rowAt = (index: number): TableRowSchema | undefined => {
    if (needle) return found.matches[index];
    const i = pages.indexOf(Math.floor(index / PAGE));
    return i === -1 ? undefined : pageQueries[i]?.data?.rows[index % PAGE];
  };
  const firstRows = needle ? found.matches.slice(0, PAGE) : pageQueries[0]?.data?.rows;
  const columns = useMemo(() => columnsOf((firstRows ?? []).map((r) => r.val)), [firstRows]);
  const failed = stats.error ?? pageQueries.find((q) => q.error)?.error ?? found.error;

  // A jump clears search and sort first: the row is then at its own index.
  useEffect(() => {
    if (jumped !== undefined && !needle && !sort) virtualizer.scrollToIndex(jumped, { align: 'start' });
  }, [jumped, needle, sort, virtualizer]);

  const change = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes))
      if (v === undefined || v === '') next.delete(k);
      else next.set(k, v);
    setParams(next, { replace: true });
  };
  const sortBy_ = (column: string) => {
    change({ sort: column, order: sort === column && order === 'asc' ? 'desc' : 'asc' });
    virtualizer.scrollToIndex(0);
  };
  const toggle = (index: number) => {
    const next = new Set(expanded);
    if (!next.delete(index)) next.add(index);
    setExpanded(next);
  };

  if (stats.isPending) return <Loading what="the table" />;
  if (failed) return <ErrorView error={failed} />;
  const template = `96px repeat(${Math.max(columns.length, 1)}, minmax(140px, 1fr))`;
  return (
    <section className="table-page">
      <TableTitle projectId={projectId} digest={digest} objectId={params.get('object')} version={params.get('v')} count={count} />
      <TableToolbar
        search={search}
        rowCount={count}
        onSearch={(text) => {
          change({ q: text.trim() });
          virtualizer.scrollToIndex(0);
        }}
        onJump={(index) => {
          change({ q: undefined, sort: undefined, order: undefined });
          setJumped(index);
          if (!needle && !sort) virtualizer.scrollToIndex(index, { align: 'start' });
        }}
      />
      {needle && (
        <p role="status" className="muted">
          {found.matches.length.toLocaleString('en-US')}
          {found.matches.length >= MAX_MATCHES ? ' (the first)' : ''} rows contain “{search}”{found.done ? '' : ' so far'}, in{' '}
          {found.rowsRead.toLocaleString('en-US')} of {count.toLocaleString('en-US')} read
          {found.done && found.rowsRead >= SCAN_LIMIT && found.rowsRead < count ? ' (the search stops there)' : ''}.
        </p>
      )}
      <div role="table" aria-label="Rows" aria-rowcount={shownCount + 1} className="vtable">
        <div role="rowgroup">
          <div role="row" className="vrow vhead" style={{ gridTemplateColumns: template }}>
            <span role="columnheader">#</span>
            {columns.map((c) => (
              <span role="columnheader" key={c} aria-sort={sort === c ? (order === 'asc' ? 'ascending' : 'descending') : 'none'}>
                <button type="button" className="link" onClick={() => sortBy_(c)}>
                  {c || '(value)'} {sort === c ? (order === 'asc' ? '▲' : '▼') : ''}
                </button>
              </span>
            ))}
          </div>
        </div>
        <div ref={scroller} className="vbody" role="rowgroup">
          <div style={{ height: `${virtualizer.getTotalSize()}px`, position: 'relative' }}>
            {items.map((item) => {
              const row = rowAt(item.index);
              const index = row?.original_index ?? item.index;
              const texts = columns.map((c) => (row ? cellText(valueAt(row.val, c)) : '…'));
              const open = row !== undefined && expanded.has(index);
              const classes = ['vrow', open ? 'expanded' : '', index === jumped && !needle ? 'jumped' : ''].filter(Boolean).join(' ');
              return (
                <div
                  role="row"
                  aria-rowindex={item.index + 2}
                  key={item.key}
                  data-index={item.index}
                  ref={virtualizer.measureElement}
                  className={classes}
                  style={{ gridTemplateColumns: template, transform: `translateY(${item.start}px)`, minHeight: `${ROW_PX}px` }}
                >
                  <span role="cell" className="num row-number">
                    <button type="button" className="link" aria-label={`Open row ${index}`} onClick={() => change({ row: String(index) })}>
                      {index}
                    </button>
                    {texts.some((t) => t.length > LONG_CELL) && (
                      <button
                        type="button"
                        className="link"
                        aria-expanded={open}
                        aria-label={`${open ? 'Collapse' : 'Expand'} row ${index}`}
                        onClick={() => toggle(index)}
                      >
                        {open ? '▾' : '▸'}
                      </button>
                    )}
                  </span>
                  {texts.map((text, i) => (
                    <span role="cell" key={columns[i]} title={row && !open ? text : undefined}>
                      {text}
                    </span>
                  ))}
                </div>
              );
            })}
          </div>
        </div>
      </div>
      {needle && found.done && found.matches.length === 0 && <p className="muted">No row contains “{search}”.</p>}
      {drawerRow !== null && /^\d+$/.test(drawerRow) && (
        <RowDrawer projectId={projectId} digest={digest} index={Number(drawerRow)} onClose={() => change({ row: undefined })} />
      )}
    </section>
  );
}

interface TableTitleProps {
  projectId: string;
  digest: string;
  objectId: string | null;
  version: string | null;
  count: number;
}

/** The dataset's object name and version when the link named them, else the table's digest. */
function TableTitle({ projectId, digest, objectId, version, count }: TableTitleProps) {
  const { $api } = useApi();
  const obj = $api.useQuery(
    'post',
    '/obj/read',
    { body: { project_id: projectId, object_id: objectId ?? '', digest: version ?? '' } },
    { enabled: objectId !== null && version !== null },
  );
  const rows = <span className="muted">{count.toLocaleString('en-US')} rows</span>;
  const objects = <Link to={`/${projectId}/objects`}>Objects of {projectId}</Link>;
  if (objectId === null || version === null || obj.error)
    return (
      <>
        <p>← {objects}</p>
        <h1>
          Table <span className="muted mono">{digest.slice(0, 12)}…</span> {rows}
        </h1>
      </>
    );
  const label = obj.data ? `${objectId} v${obj.data.obj.version_index}` : objectId;
  return (
    <>
      <nav aria-label="Breadcrumb" className="muted">
        ← {objects} › <Link to={`/${projectId}/objects/${encodeURIComponent(objectId)}?v=${version}`}>{label}</Link>
      </nav>
      <h1>
        {label} {rows}
      </h1>
    </>
  );
}
