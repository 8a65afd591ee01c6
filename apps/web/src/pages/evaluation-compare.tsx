// Two or more evaluation runs side by side (eval_results/query): the summary metrics of each with
// its change from the baseline (the first), then the dataset's examples, 50 a page, each with every
// run's output and scores, sortable by a score (its spread across runs, or the baseline's value)
// and filterable to the examples where a score got worse (or better). Higher is better unless the
// reader marks a score "lower is better". Each cell opens its trace.
// Everything but the ids' order lives in the URL.
import type { EvalResultsQueryReq, EvalResultsRow } from '@weft/types';
import { Link, useParams, useSearchParams } from 'react-router';
import { formatDelta, formatMetric, metricsOf, refName, rowValue, type Metric } from '../eval-compare.ts';
import { valueText } from '../feedback-facts.ts';
import { Pager } from '../components/pager.tsx';
import { ErrorView, Loading } from '../components/query-state.tsx';
import { useApi } from '../session.tsx';

const PAGE = 50;
const CELL_CHARS = 160;
const clip = (text: string) => (text.length > CELL_CHARS ? `${text.slice(0, CELL_CHARS)}…` : text);

export function EvaluationComparePage() {
  const { entity, project } = useParams() as { entity: string; project: string };
  const [params, setParams] = useSearchParams();
  const ids = (params.get('ids') ?? '').split(',').filter((id) => id !== '');
  const sort = params.get('sort') ?? '';
  const mode = params.get('mode') === 'value' ? 'value' : 'difference';
  const direction = params.get('dir') === 'asc' ? 'asc' : 'desc';
  const only = params.get('only') ?? '';
  const onlyWay = params.get('way') === 'better' ? 'better' : 'worse';
  // Scores where lower is better (a distance, a latency), marked by the reader: the server counts
  // higher as better, so their "worse" is its "better", and their changes are coloured the other way.
  const lower = new Set((params.get('lower') ?? '').split(',').filter((k) => k !== ''));
  const toggleLower = (key: string) => {
    const next = new Set(lower);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    set({ lower: [...next].join(',') });
  };
  const serverWay = lower.has(only) ? (onlyWay === 'worse' ? 'better' : 'worse') : onlyWay;
  const page = Math.max(0, Number(params.get('page') ?? 0) || 0);
  const set = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v === undefined || v === '') next.delete(k);
      else next.set(k, v);
    }
    if (!('page' in changes)) next.delete('page');
    setParams(next);
  };
  const { $api } = useApi();
  const path = { params: { path: { entity, project } } };
  const summary = $api.useQuery('post', '/v2/{entity}/{project}/eval_results/query', {
    ...path,
    body: { evaluation_call_ids: ids, include_rows: false, include_summary: true },
  });
  const rowsBody: EvalResultsQueryReq = {
    evaluation_call_ids: ids,
    include_raw_data_rows: true,
    resolve_row_refs: true,
    ...(sort ? { sort_by: [{ field: `scores.${sort}`, direction, mode }] } : {}),
    ...(only ? { only_changed: { field: `scores.${only}`, direction: serverWay } } : {}),
    limit: PAGE + 1,
    offset: page * PAGE,
  };
  const rows = $api.useQuery('post', '/v2/{entity}/{project}/eval_results/query', { ...path, body: rowsBody });

  if (ids.length < 2) return <p className="muted">Pick two evaluations or more in the evaluations list to compare them.</p>;
  const evaluations = summary.data?.summary?.evaluations ?? [];
  const metrics = metricsOf(evaluations);
  const shown = rows.data?.rows.slice(0, PAGE) ?? [];
  const trace = (id: string) => `/${entity}/${project}/r/call/${id}`;
  return (
    <section>
      <p>
        <Link to={`/${entity}/${project}/evaluations`}>
          ← Evaluations of {entity}/{project}
        </Link>
      </p>
      <h1>Compare {ids.length} evaluations</h1>
      {summary.isPending ? (
        <Loading what="the summary" />
      ) : summary.error ? (
        <ErrorView error={summary.error} />
      ) : (
        <table className="grid" aria-label="Summary">
          <thead>
            <tr>
              <th>Metric</th>
              {evaluations.map((e, i) => (
                <th key={e.evaluation_call_id}>
                  <Link to={trace(e.evaluation_call_id)}>{e.display_name ?? e.evaluation_call_id}</Link>
                  <div className="muted">
                    {refName(e.model_ref)}
                    {i === 0 ? ' · baseline' : ''}
                  </div>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>trials</td>
              {evaluations.map((e) => (
                <td key={e.evaluation_call_id} className="num">
                  {e.trial_count.toLocaleString()}
                </td>
              ))}
            </tr>
            {metrics.map((m) => (
              <tr key={m.key} data-metric={m.key}>
                <td>
                  {m.key} <span className="muted">({m.kind})</span>{' '}
                  <button
                    type="button"
                    className="link"
                    aria-pressed={lower.has(m.key)}
                    title="Which way is better for this score"
                    onClick={() => toggleLower(m.key)}
                  >
                    {lower.has(m.key) ? 'lower is better' : 'higher is better'}
                  </button>
                </td>
                {m.values.map((v, i) => (
                  <td key={i} className="num">
                    {formatMetric(v, m.kind)} <Delta metric={m} i={i} lowerIsBetter={lower.has(m.key)} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form className="filters" aria-label="Examples view" onSubmit={(e) => e.preventDefault()}>
        <label>
          Sort by
          <select aria-label="Sort by" value={sort} onChange={(e) => set({ sort: e.target.value })}>
            <option value="">dataset order</option>
            {metrics.map((m) => (
              <option key={m.key} value={m.key}>
                {m.key}
              </option>
            ))}
          </select>
        </label>
        <label>
          as
          <select aria-label="Sort mode" value={mode} disabled={!sort} onChange={(e) => set({ mode: e.target.value })}>
            <option value="difference">spread across runs</option>
            <option value="value">baseline's value</option>
          </select>
        </label>
        <label>
          order
          <select aria-label="Order" value={direction} disabled={!sort} onChange={(e) => set({ dir: e.target.value })}>
            <option value="desc">high first</option>
            <option value="asc">low first</option>
          </select>
        </label>
        <label>
          Only examples where
          <select aria-label="Changed score" value={only} onChange={(e) => set({ only: e.target.value })}>
            <option value="">(all examples)</option>
            {metrics.map((m) => (
              <option key={m.key} value={m.key}>
                {m.key}
              </option>
            ))}
          </select>
        </label>
        <label>
          got
          <select aria-label="Change" value={onlyWay} disabled={!only} onChange={(e) => set({ way: e.target.value })}>
            <option value="worse">worse than the baseline</option>
            <option value="better">better than the baseline</option>
          </select>
        </label>
      </form>
      {rows.isPending ? (
        <Loading what="the examples" />
      ) : rows.error ? (
        <ErrorView error={rows.error} />
      ) : (
        <>
          <p role="status" className="muted">
            {rows.data.total_rows.toLocaleString()} examples{only ? ` where ${only} got ${onlyWay}` : ''}.
          </p>
          <table className="grid compare" aria-label="Examples">
            <thead>
              <tr>
                <th>Example</th>
                {ids.map((id, i) => (
                  <th key={id}>{evaluations[i]?.display_name ?? id}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {shown.map((row) => (
                <ExampleRow key={row.row_digest} row={row} ids={ids} metrics={metrics} lower={lower} trace={trace} />
              ))}
            </tbody>
          </table>
          <Pager page={page} hasNext={rows.data.rows.length > PAGE} onPage={(n) => set({ page: n > 0 ? String(n) : undefined })}>
            Page {page + 1} · examples {page * PAGE + Math.min(1, shown.length)}–{page * PAGE + shown.length} of{' '}
            {rows.data.total_rows.toLocaleString()}
          </Pager>
        </>
      )}
    </section>
  );
}

/** 'better', 'worse' or '' for a change from `base` to `value`, higher being better unless said otherwise. */
function changeOf(value: number | undefined, base: number | undefined, lowerIsBetter: boolean): string {
  if (value === undefined || base === undefined || value === base) return '';
  return value > base !== lowerIsBetter ? 'better' : 'worse';
}

function Delta({ metric, i, lowerIsBetter }: { metric: Metric; i: number; lowerIsBetter: boolean }) {
  const delta = metric.deltas[i] ?? null;
  if (delta === null) return null;
  return <span className={`delta ${changeOf(delta, 0, lowerIsBetter)}`}>{formatDelta(delta, metric.kind)}</span>;
}

interface ExampleRowProps {
  row: EvalResultsRow;
  ids: string[];
  metrics: Metric[];
  lower: ReadonlySet<string>;
  trace: (id: string) => string;
}

function ExampleRow({ row, ids, metrics, lower, trace }: ExampleRowProps) {
  const byEval = new Map(row.evaluations.map((e) => [e.evaluation_call_id, e]));
  const baseline = byEval.get(ids[0]!);
  return (
    <tr data-row={row.row_digest}>
      <td className="mono">{clip(valueText(row.raw_data_row ?? row.row_digest))}</td>
      {ids.map((id, i) => {
        const evaluation = byEval.get(id);
        const trial = evaluation?.trials[0];
        if (!trial)
          return (
            <td key={id} className="muted">
              not in this run
            </td>
          );
        return (
          <td key={id} data-evaluation={id}>
            <Link to={trace(trial.predict_and_score_call_id)} className="mono">
              {clip(valueText(trial.model_output ?? null))}
            </Link>
            <dl className="scores">
              {metrics.map((m) => {
                const value = rowValue(evaluation, m.key);
                const base = rowValue(baseline, m.key);
                const change = i === 0 ? '' : changeOf(value, base, lower.has(m.key));
                return (
                  <div key={m.key} className={change} data-score={m.key}>
                    <dt>{m.key}</dt>
                    <dd>{value === undefined ? '—' : Number.isInteger(value) ? value : value.toFixed(3)}</dd>
                  </div>
                );
              })}
            </dl>
            {evaluation.trials.length > 1 && <span className="muted">{evaluation.trials.length} trials (mean)</span>}
          </td>
        );
      })}
    </tr>
  );
}
