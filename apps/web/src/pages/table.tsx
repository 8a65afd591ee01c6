// A table's rows (a dataset, a log's trajectories) with virtual scrolling: only the rows in view
// are in the page, fetched 100 at a time as they scroll in, so a 1,000,000-row table scrolls like a
// small one. Clicking a column header sorts by it (table/query's dot paths), then reverses.
import { useQueries } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { TableRowSchema } from '@weft/types';
import { useEffect, useMemo, useRef } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { ErrorView, Loading } from '../components/query-state.tsx';
import { useApi } from '../session.tsx';
import { cellText, columnsOf, valueAt } from '../table-columns.ts';

const PAGE = 100;
const ROW_PX = 32;

export function TablePage() {
  const { entity, project, digest } = useParams() as { entity: string; project: string; digest: string };
  const projectId = `${entity}/${project}`;
  const [params, setParams] = useSearchParams();
  const sort = params.get('sort') ?? '';
  const order = params.get('order') === 'desc' ? 'desc' : 'asc';
  const { $api } = useApi();
  const stats = $api.useQuery('post', '/table/query_stats', { body: { project_id: projectId, digest } });
  const count = stats.data?.count ?? 0;

  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count, getScrollElement: () => scroller.current, estimateSize: () => ROW_PX, overscan: 20 });
  // The row count arrives after the first render: lay the list out again when it does.
  useEffect(() => virtualizer.measure(), [count, virtualizer]);
  const items = virtualizer.getVirtualItems();
  // The pages the rows in view fall in (and the first page, which names the columns).
  const pages = useMemo(() => {
    const set = new Set<number>([0]);
    for (const item of items) set.add(Math.floor(item.index / PAGE));
    return [...set].filter((p) => p * PAGE < Math.max(count, 1));
  }, [items, count]);
  const pageQueries = useQueries({
    queries: pages.map((page) =>
      $api.queryOptions(
        'post',
        '/table/query',
        {
          body: {
            project_id: projectId,
            digest,
            limit: PAGE,
            offset: page * PAGE,
            ...(sort ? { sort_by: [{ field: sort, order }] } : {}),
          },
        },
        { staleTime: Infinity, enabled: stats.isSuccess },
      ),
    ),
  });
  const rowAt = (index: number): TableRowSchema | undefined => {
    const i = pages.indexOf(Math.floor(index / PAGE));
    return i === -1 ? undefined : pageQueries[i]?.data?.rows[index % PAGE];
  };
  const firstRows = pageQueries[0]?.data?.rows;
  const columns = useMemo(() => columnsOf((firstRows ?? []).map((r) => r.val)), [firstRows]);
  const failed = stats.error ?? pageQueries.find((q) => q.error)?.error;

  const sortBy = (column: string) => {
    const next = new URLSearchParams(params);
    next.set('sort', column);
    next.set('order', sort === column && order === 'asc' ? 'desc' : 'asc');
    setParams(next, { replace: true });
    virtualizer.scrollToIndex(0);
  };

  if (stats.isPending) return <Loading what="the table" />;
  if (failed) return <ErrorView error={failed} />;
  const template = `80px repeat(${Math.max(columns.length, 1)}, minmax(140px, 1fr))`;
  return (
    <section>
      <p>
        <Link to={`/${entity}/${project}/objects`}>← Objects of {projectId}</Link>
      </p>
      <h1>
        Table <span className="muted mono">{digest.slice(0, 12)}…</span> <span className="muted">{count.toLocaleString()} rows</span>
      </h1>
      <div role="table" aria-label="Rows" aria-rowcount={count + 1} className="vtable">
        <div role="rowgroup">
          <div role="row" className="vrow vhead" style={{ gridTemplateColumns: template }}>
            <span role="columnheader">#</span>
            {columns.map((c) => (
              <span role="columnheader" key={c} aria-sort={sort === c ? (order === 'asc' ? 'ascending' : 'descending') : 'none'}>
                <button type="button" className="link" onClick={() => sortBy(c)}>
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
              return (
                <div
                  role="row"
                  aria-rowindex={item.index + 2}
                  key={item.key}
                  className="vrow"
                  style={{ gridTemplateColumns: template, transform: `translateY(${item.start}px)`, height: `${ROW_PX}px` }}
                >
                  <span role="cell" className="muted num">
                    {row ? row.original_index : item.index}
                  </span>
                  {columns.map((c) => (
                    <span role="cell" key={c} title={row ? cellText(valueAt(row.val, c)) : undefined}>
                      {row ? cellText(valueAt(row.val, c)) : '…'}
                    </span>
                  ))}
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </section>
  );
}
