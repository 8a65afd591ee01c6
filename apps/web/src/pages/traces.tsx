// The root calls of a project: newest first by default, sortable on the server (latency, status, a
// score too), filtered by op, thread, status, start time, score and text in one field of the inputs
// or output, with the columns picked, paged with the total (pagers above and below); calls can be
// selected (one by one, a page, or every call matching the filter) and sent to an annotation queue.
// Filters, search, sort, columns and page live in the URL, so a view can be shared and the back
// button works.
import { parseJsonLines } from '@weft/client';
import type { CallSchema, CallsStreamQueryReq } from '@weft/types';
import { useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { ColumnPicker } from '../components/column-picker.tsx';
import { Pager } from '../components/pager.tsx';
import { ErrorView, Loading } from '../components/query-state.tsx';
import { SelectionBar } from '../components/selection-bar.tsx';
import { TraceFilters } from '../components/trace-filters.tsx';
import { TraceSearch } from '../components/trace-search.tsx';
import { TracesTable } from '../components/traces-table.tsx';
import { formatColumns, isSearchField, parseColumns, searchFields, toggleColumn } from '../traces-columns.ts';
import { tracesQuery } from '../traces-query.ts';
import { useApi } from '../session.tsx';
import { useAnnotationSpecs } from '../use-annotation-specs.ts';

const PAGE = 50;
/** Ids read a request when every matching call is selected. */
const ID_PAGE = 10_000;

export function TracesPage() {
  const { entity, project } = useParams() as { entity: string; project: string };
  const projectId = `${entity}/${project}`;
  const [params, setParams] = useSearchParams();
  const page = Math.max(0, Number(params.get('page') ?? 0) || 0);
  const sort = params.get('sort') ?? 'started_at';
  const direction = params.get('dir') === 'asc' ? 'asc' : 'desc';
  const values = {
    op: params.get('op') ?? '',
    thread: params.get('thread') ?? '',
    status: params.get('status') ?? '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
    score: params.get('score') ?? '',
  };
  const search = params.get('q') ?? '';
  const searchInParam = params.get('in') ?? '';
  const searchIn = isSearchField(searchInParam) ? searchInParam : '';
  const columns = parseColumns(params.get('cols'));
  const conditions = tracesQuery({ ...values, search, searchIn });
  const { op, thread } = values;
  const filter = { trace_roots_only: true, ...(op ? { op_names: [op] } : {}), ...(thread ? { thread_ids: [thread] } : {}) };
  const query = conditions ? { query: conditions as CallsStreamQueryReq['query'] } : {};
  const body: CallsStreamQueryReq = {
    project_id: projectId,
    filter,
    ...query,
    sort_by: [{ field: sort, direction }],
    // One more than a page: whether a next page exists.
    limit: PAGE + 1,
    offset: page * PAGE,
    include_costs: true,
    include_feedback: true,
  };
  const { client, $api } = useApi();
  const calls = $api.useQuery(
    'post',
    '/calls/stream_query',
    { body, parseAs: 'text' },
    { select: (text) => parseJsonLines<CallSchema>(text) },
  );
  // The total of the same filter, for "page N of M" and "select all matching".
  const total = $api.useQuery('post', '/calls/query_stats', { body: { project_id: projectId, filter, ...query } });
  const pages = total.data ? Math.max(1, Math.ceil(total.data.count / PAGE)) : undefined;
  const { specs } = useAnnotationSpecs(projectId);
  const opObjects = $api.useQuery('post', '/objs/query', {
    body: {
      project_id: projectId,
      filter: { is_op: true, latest_only: true },
      sort_by: [{ field: 'object_id', direction: 'asc' }],
      limit: 1000,
    },
  });
  const ops = (opObjects.data?.objs ?? []).map((o) => `weave:///${projectId}/op/${o.object_id}:*`);
  const scoreNames = specs.map((s) => s.object_id);

  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const [allMatching, setAllMatching] = useState(false);
  const clearSelection = () => {
    setPicked(new Set());
    setAllMatching(false);
  };
  const select = (ids: string[], on: boolean) => {
    const next = new Set(picked);
    for (const id of ids) {
      if (on) next.add(id);
      else next.delete(id);
    }
    setPicked(next);
    setAllMatching(false);
  };
  const matchingIds = async () => {
    const ids: string[] = [];
    for (let offset = 0; ; offset += ID_PAGE) {
      const text = await client.POST('/calls/stream_query', {
        body: {
          project_id: projectId,
          filter,
          ...query,
          columns: ['id'],
          sort_by: [{ field: 'started_at', direction: 'asc' }],
          limit: ID_PAGE,
          offset,
        },
      });
      const rows = parseJsonLines<{ id: string }>(text);
      ids.push(...rows.map((r) => r.id));
      if (rows.length < ID_PAGE) return ids;
    }
  };

  const update = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v === undefined || v === '') next.delete(k);
      else next.set(k, v);
    }
    setParams(next);
  };
  const sortBy = (field: string) => update({ sort: field, dir: sort === field && direction === 'desc' ? 'asc' : 'desc', page: undefined });
  const shown = calls.data?.slice(0, PAGE) ?? [];
  const fields = searchFields(shown, searchIn);

  // Above the list the same pager, its words shorter (the toolbar's line is shared).
  const pager = (label: string, short = false) =>
    calls.data && (
      <Pager label={label} page={page} hasNext={calls.data.length > PAGE} onPage={(n) => update({ page: n > 0 ? String(n) : undefined })}>
        Page {page + 1}
        {pages !== undefined && ` of ${pages}`} · {short ? '' : 'traces '}
        {page * PAGE + Math.min(1, calls.data.length)}–{page * PAGE + Math.min(PAGE, calls.data.length)}
        {total.data && ` of ${total.data.count.toLocaleString()}`}
      </Pager>
    );

  return (
    <section>
      <h1>
        Traces <span className="muted">of {projectId}</span>
      </h1>
      <TraceFilters
        values={values}
        ops={ops}
        scoreNames={scoreNames}
        onApply={(f) => {
          clearSelection();
          update({ ...f, page: undefined });
        }}
      />
      <TraceSearch
        key={`${search}\u0000${searchIn}`}
        text={search}
        field={searchIn}
        fields={fields}
        onSearch={(q, field) => {
          clearSelection();
          update({ q, in: field, page: undefined });
        }}
      />
      <div className="list-toolbar">
        <ColumnPicker
          shown={columns}
          onToggle={(id, on) => update({ cols: formatColumns(toggleColumn(columns, id, on)) })}
          onReset={() => update({ cols: undefined })}
        />
        {pager('Pages (top)', true)}
      </div>
      <SelectionBar
        projectId={projectId}
        picked={picked}
        allMatching={allMatching}
        total={total.data?.count}
        pageFullyPicked={shown.length > 0 && shown.every((c) => picked.has(c.id))}
        onAllMatching={() => setAllMatching(true)}
        onClear={clearSelection}
        matchingIds={matchingIds}
      />
      {calls.isPending ? (
        <Loading what="traces" />
      ) : calls.error ? (
        <ErrorView error={calls.error} />
      ) : (
        <>
          <TracesTable
            projectPath={`/${entity}/${project}`}
            calls={shown}
            scoreNames={scoreNames}
            columns={columns}
            sorting={{ field: sort, direction }}
            onSort={sortBy}
            selected={picked}
            onSelect={select}
          />
          {calls.data.length === 0 && <p className="muted">No trace matches.</p>}
          {pager('Pages (bottom)')}
        </>
      )}
    </section>
  );
}
