// A project's overview: calls and errors, latency percentiles, tokens and cost by model and the
// numeric feedback fields over a chosen window, each computed by the server (calls/stats,
// feedback/stats) and drawn as small SVG charts. Numbers and times in the reader's locale.
import { useMemo, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { LineChart } from '../components/line-chart.tsx';
import { ErrorView, Loading } from '../components/query-state.tsx';
import {
  callSeries,
  callStatsBody,
  callTotals,
  feedbackSeries,
  feedbackStatsBody,
  latencySeries,
  modelTotals,
  numericPaths,
  RANGES,
  rangeOf,
  usageSeries,
  windowOf,
  type Range,
  type StatsWindow,
} from '../overview-stats.ts';
import { useApi } from '../session.tsx';

const count = new Intl.NumberFormat();
const decimal = new Intl.NumberFormat(undefined, { maximumSignificantDigits: 3 });
const usd = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
const smallUsd = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD', maximumSignificantDigits: 3 });
const formatCount = (v: number) => count.format(v);
const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });
const formatDecimal = (v: number) => decimal.format(v);
const formatMs = (v: number) => `${count.format(Math.round(v))} ms`;
const formatCost = (v: number) => (v === 0 || Math.abs(v) >= 1 ? usd : smallUsd).format(v);
// Axis labels: short (1.2K, $0.0012); a point's tooltip and the tiles hold the exact values.
const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });
const axisUsd = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD', maximumSignificantDigits: 2 });
const tickCount = (v: number) => compact.format(v);
const tickMs = (v: number) => `${compact.format(v)} ms`;
const tickCost = (v: number) => axisUsd.format(v);

/** Axis times: hours and minutes within a day, dates beyond. */
function timeFormat(range: Range): (x: number) => string {
  const f = new Intl.DateTimeFormat(
    undefined,
    range.ms <= 24 * 3_600_000 ? { hour: 'numeric', minute: '2-digit' } : { month: 'short', day: 'numeric' },
  );
  return (x) => f.format(x);
}

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function OverviewPage() {
  const { entity, project } = useParams() as { entity: string; project: string };
  const projectId = `${entity}/${project}`;
  const [params, setParams] = useSearchParams();
  const range = rangeOf(params.get('range'));
  // The window ends when the range was picked (or Refresh pressed), so the query's key holds still.
  const [end, setEnd] = useState(() => Date.now());
  const win = useMemo(() => windowOf(projectId, range, end), [projectId, range, end]);
  const pick = (r: Range) => {
    setEnd(Date.now());
    setParams({ range: r.id });
  };
  return (
    <section className="overview">
      <h1>
        Overview <span className="muted">of {projectId}</span>
      </h1>
      <div className="range-picker" role="group" aria-label="Time range">
        {RANGES.map((r) => (
          <button key={r.id} type="button" aria-pressed={r.id === range.id} onClick={() => pick(r)}>
            Last {r.label}
          </button>
        ))}
        <button type="button" className="link" onClick={() => setEnd(Date.now())}>
          Refresh
        </button>
        <span className="muted">
          {when.format(Date.parse(win.start))} – {when.format(Date.parse(win.end))}
        </span>
      </div>
      <CallCharts win={win} range={range} />
      <FeedbackCharts win={win} range={range} />
    </section>
  );
}

function CallCharts({ win, range }: { win: StatsWindow; range: Range }) {
  const { $api } = useApi();
  const stats = $api.useQuery('post', '/calls/stats', { body: callStatsBody(win) });
  const formatX = timeFormat(range);
  const view = useMemo(() => {
    if (!stats.data) return undefined;
    const models = modelTotals(stats.data.usage_buckets);
    const names = models.map((m) => m.model);
    return {
      totals: callTotals(stats.data.call_buckets),
      models,
      calls: callSeries(stats.data.call_buckets),
      latency: latencySeries(stats.data.call_buckets),
      tokens: usageSeries(stats.data.usage_buckets, names, 'tokens'),
      cost: usageSeries(stats.data.usage_buckets, names, 'cost'),
    };
  }, [stats.data]);
  if (stats.isPending) return <Loading what="call statistics" />;
  if (stats.error) return <ErrorView error={stats.error} />;
  if (!view) return null;
  const { totals, models } = view;
  const sum = (f: (m: (typeof models)[number]) => number) => models.reduce((s, m) => s + f(m), 0);
  const cost = sum((m) => m.cost);
  const chart = { xLabel: 'time', formatX, fromZero: true };
  return (
    <section aria-label="Calls" aria-busy={stats.isFetching}>
      <dl className="tiles" aria-label="Totals">
        <div>
          <dt>Calls</dt>
          <dd data-testid="total-calls">{formatCount(totals.calls)}</dd>
        </div>
        <div>
          <dt>Errors</dt>
          <dd data-testid="total-errors">
            {formatCount(totals.errors)}
            {totals.calls > 0 && <span className="muted"> ({percent.format(totals.errors / totals.calls)})</span>}
          </dd>
        </div>
        <div>
          <dt>Tokens</dt>
          <dd>{formatCount(sum((m) => m.input_tokens + m.output_tokens))}</dd>
        </div>
        <div>
          <dt>Cost</dt>
          <dd>{formatCost(cost)}</dd>
        </div>
      </dl>
      {totals.calls === 0 ? (
        <p className="muted empty">No calls in this range.</p>
      ) : (
        <>
          <div className="charts">
            <LineChart title="Calls and errors" series={view.calls} formatY={formatCount} formatTick={tickCount} {...chart} />
            <LineChart title="Latency (ms)" series={view.latency} formatY={formatMs} formatTick={tickMs} {...chart} />
            {models.length > 0 && (
              <LineChart title="Tokens by model" series={view.tokens} formatY={formatCount} formatTick={tickCount} {...chart} />
            )}
            {cost > 0 && <LineChart title="Cost by model" series={view.cost} formatY={formatCost} formatTick={tickCost} {...chart} />}
          </div>
          {models.length === 0 ? (
            <p className="muted">No token usage recorded in this range.</p>
          ) : (
            <table className="grid" aria-label="Tokens and cost by model">
              <thead>
                <tr>
                  <th>Model</th>
                  <th className="num">Input tokens</th>
                  <th className="num">Output tokens</th>
                  <th className="num">Tokens</th>
                  <th className="num">Cost</th>
                </tr>
              </thead>
              <tbody>
                {models.map((m) => (
                  <tr key={m.model}>
                    <td className="mono">{m.model}</td>
                    <td className="num">{formatCount(m.input_tokens)}</td>
                    <td className="num">{formatCount(m.output_tokens)}</td>
                    <td className="num">{formatCount(m.input_tokens + m.output_tokens)}</td>
                    <td className="num">{formatCost(m.cost)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {models.length > 0 && (
            <p className="muted">
              Costs at the project&rsquo;s prices, else the catalogue&rsquo;s list prices; a model with neither costs nothing here.
            </p>
          )}
        </>
      )}
    </section>
  );
}

function FeedbackCharts({ win, range }: { win: StatsWindow; range: Range }) {
  const { $api } = useApi();
  const { project_id, start, end } = win;
  const schema = $api.useQuery('post', '/feedback/payload_schema', { body: { project_id, start, end } });
  const paths = useMemo(() => numericPaths(schema.data?.paths ?? []), [schema.data]);
  const stats = $api.useQuery('post', '/feedback/stats', { body: feedbackStatsBody(win, paths) }, { enabled: paths.length > 0 });
  const series = useMemo(() => feedbackSeries(stats.data?.buckets ?? [], paths), [stats.data, paths]);
  const error = schema.error ?? stats.error;
  return (
    <section aria-label="Feedback">
      <h2>Feedback scores</h2>
      {error ? (
        <ErrorView error={error} />
      ) : schema.isPending || (paths.length > 0 && stats.isPending) ? (
        <Loading what="feedback statistics" />
      ) : paths.length === 0 || series.every((s) => s.points.every((p) => p.y === null)) ? (
        <p className="muted empty">No numeric feedback in this range.</p>
      ) : (
        <div className="charts">
          <LineChart title="Feedback scores (mean)" series={series} xLabel="time" formatX={timeFormat(range)} formatY={formatDecimal} />
        </div>
      )}
    </section>
  );
}
