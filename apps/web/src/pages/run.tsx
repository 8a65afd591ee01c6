// One RL run: reward (mean with a ± std-dev band), exception rate and every custom metric over
// steps, one line per split; picking a point lists that step's trajectories (sortable by reward,
// a page at a time); below, the checkpoints the trainer registered.
import type { MetricHistoryPoint } from '@weft/types';
import { useMemo } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { CheckpointTable } from '../components/checkpoint-table.tsx';
import { LineChart, type Series } from '../components/line-chart.tsx';
import { ErrorView, Loading } from '../components/query-state.tsx';
import { StepTrajectories } from '../components/step-trajectories.tsx';
import { isOrder } from '../trajectory-order.ts';
import { useApi } from '../session.tsx';

/** One chart per metric; reward first with its band, then exception rate, then the rest by name. */
export function chartsOf(points: readonly MetricHistoryPoint[]): Array<{ metric: string; series: Series[] }> {
  const bySplit = new Map<string, MetricHistoryPoint[]>();
  for (const p of points) bySplit.set(p.split, [...(bySplit.get(p.split) ?? []), p]);
  const names = new Set(points.flatMap((p) => Object.keys(p.metrics)));
  names.delete('reward_std_dev');
  const order = ['reward', 'exception_rate', ...[...names].filter((n) => n !== 'reward' && n !== 'exception_rate').sort()];
  return order
    .filter((m) => names.has(m))
    .map((metric) => ({
      metric,
      series: [...bySplit].map(([split, ps]) => ({
        name: split,
        points: ps.flatMap((p) => {
          const y = p.metrics[metric];
          if (typeof y !== 'number') return [];
          const sd = p.metrics.reward_std_dev;
          return [
            { x: p.step, y, ...(metric === 'reward' && typeof sd === 'number' ? { band: [y - sd, y + sd] as [number, number] } : {}) },
          ];
        }),
      })),
    }));
}

export function RunPage() {
  const { entity, project, modelId } = useParams() as { entity: string; project: string; modelId: string };
  const [params, setParams] = useSearchParams();
  const { $api } = useApi();
  const model = $api.useQuery('get', '/v1/preview/models/{model_id}', { params: { path: { model_id: modelId } } });
  const history = $api.useQuery('get', '/v1/preview/models/{model_id}/metrics', { params: { path: { model_id: modelId } } });
  const charts = useMemo(() => chartsOf(history.data?.data ?? []), [history.data]);
  const step = params.get('step');
  const split = params.get('split');
  const orderParam = params.get('order');
  const order = isOrder(orderParam) ? orderParam : 'logged';
  // The page is 1-based in the URL, as the pager reads it.
  const page = Math.max(0, Number(params.get('page') ?? 1) - 1) || 0;
  // Another step keeps the order and starts at its first page; another order too.
  const show = (next: { step: string; split: string; order: string; page?: number }) =>
    setParams({
      step: next.step,
      split: next.split,
      ...(next.order !== 'logged' ? { order: next.order } : {}),
      ...(next.page ? { page: String(next.page + 1) } : {}),
    });
  if (model.isPending || history.isPending) return <Loading what="the run" />;
  if (model.error ?? history.error) return <ErrorView error={model.error ?? history.error} />;
  return (
    <section>
      <p>
        <Link to={`/${entity}/${project}/runs`}>
          ← RL runs of {entity}/{project}
        </Link>
      </p>
      <h1>
        {model.data.name} <span className="muted mono">{model.data.base_model}</span>
      </h1>
      {charts.length === 0 ? (
        <p className="muted">Nothing logged yet.</p>
      ) : (
        <>
          <p className="muted">Pick a point (or focus a chart, move with ← → and press Enter) to list that step’s trajectories.</p>
          <div className="charts">
            {charts.map((c) => (
              <LineChart
                key={c.metric}
                title={c.metric}
                yLabel={c.metric}
                series={c.series}
                onPick={(x, s) => show({ step: String(x), split: s, order })}
              />
            ))}
          </div>
        </>
      )}
      {step !== null && split !== null && (
        <StepTrajectories
          modelId={modelId}
          step={Number(step)}
          split={split}
          order={order}
          page={page}
          onOrder={(o) => show({ step, split, order: o })}
          onPage={(p) => show({ step, split, order, page: p })}
        />
      )}
      <CheckpointTable modelId={modelId} />
    </section>
  );
}
