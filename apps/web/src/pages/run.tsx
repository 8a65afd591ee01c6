// One RL run: reward (mean with a ± std-dev band), exception rate and every custom metric over
// steps, one line per split; picking a point shows that step's trajectories as conversations.
import type { MetricHistoryPoint } from '@weft/types';
import { useMemo } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { ChatView, messagesOf } from '../components/chat-view.tsx';
import { JsonView } from '../components/json-view.tsx';
import { LineChart, type Series } from '../components/line-chart.tsx';
import { ErrorView, Loading } from '../components/query-state.tsx';
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
        <div className="charts">
          {charts.map((c) => (
            <LineChart key={c.metric} title={c.metric} series={c.series} onPick={(x, s) => setParams({ step: String(x), split: s })} />
          ))}
        </div>
      )}
      {step !== null && split !== null && <StepTrajectories modelId={modelId} step={Number(step)} split={split} />}
    </section>
  );
}

function StepTrajectories({ modelId, step, split }: { modelId: string; step: number; split: string }) {
  const { $api } = useApi();
  const query = $api.useQuery('get', '/v1/preview/models/{model_id}/trajectories', {
    params: { path: { model_id: modelId }, query: { step, split, limit: 20 } },
  });
  return (
    <section aria-label="Trajectories of the step">
      <h2>
        Step {step}, {split}
      </h2>
      {query.isPending ? (
        <Loading what="trajectories" />
      ) : query.error ? (
        <ErrorView error={query.error} />
      ) : (
        query.data.data.map((t) => {
          const tr = t.trajectory as { reward?: number; metrics?: unknown; messages_and_choices?: unknown[] };
          const messages = messagesOf((tr.messages_and_choices ?? []).map((m) => (m as { message?: unknown }).message ?? m));
          return (
            <article key={t.id} className="trajectory">
              <p>
                <strong>Reward {tr.reward ?? '—'}</strong> <span className="muted mono">{t.id}</span>
              </p>
              <JsonView value={tr.metrics ?? {}} />
              {messages ? <ChatView messages={messages} /> : <JsonView value={tr.messages_and_choices ?? []} />}
            </article>
          );
        })
      )}
      {query.data?.has_more && <p className="muted">The first 20 trajectories of the step.</p>}
    </section>
  );
}
