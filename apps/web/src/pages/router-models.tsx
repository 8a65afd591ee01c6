// The inference router's catalogue: prices per million tokens, context length, modalities, and
// each model's provider endpoints with their health as the router measured it.
import type { RouterEndpoint } from '@weft/types';
import { Link } from 'react-router';
import { EndpointHealth } from '../components/endpoint-health.tsx';
import { ErrorView, Loading } from '../components/query-state.tsx';
import { useApi } from '../session.tsx';

/** A per-token price string (exact decimal) as dollars per million tokens. */
export function perMillion(price: string): string {
  const dollars = Number(price) * 1_000_000;
  return dollars === 0 ? 'free' : `$${Number(dollars.toPrecision(6))}`;
}

// Health changes as requests flow: read again while the page is open.
const HEALTH_REFRESH_MS = 10_000;

export function RouterModelsPage() {
  const { $api } = useApi();
  const { data, error, isPending } = $api.useQuery('get', '/inference/router/gateway/models');
  const health = $api.useQuery('get', '/inference/router/endpoints', {}, { refetchInterval: HEALTH_REFRESH_MS });
  if (isPending) return <Loading what="the model catalogue" />;
  if (error) return <ErrorView error={error} />;
  const byModel = new Map<string, RouterEndpoint[]>();
  for (const e of health.data?.data ?? []) byModel.set(e.model, [...(byModel.get(e.model) ?? []), e]);
  return (
    <section>
      <h1>Router models</h1>
      {health.error && <ErrorView error={health.error} />}
      <table className="grid" aria-label="Router models">
        <thead>
          <tr>
            <th>Model</th>
            <th>Input / 1M tokens</th>
            <th>Output / 1M tokens</th>
            <th>Context</th>
            <th>Modalities</th>
            <th>Endpoints</th>
          </tr>
        </thead>
        <tbody>
          {data.data.map((m) => (
            <tr key={m.id}>
              <td>
                {m.name}
                <div className="muted mono">{m.id}</div>
                <Link to={`/playground?${new URLSearchParams({ model: m.id }).toString()}`}>Try in playground</Link>
              </td>
              <td className="num">{perMillion(m.pricing.prompt)}</td>
              <td className="num">{perMillion(m.pricing.completion)}</td>
              <td className="num">{m.context_length.toLocaleString()}</td>
              <td>
                {m.input_modalities.join(', ')} → {m.output_modalities.join(', ')}
              </td>
              <td aria-label={`Endpoints of ${m.id}`}>
                {health.isPending ? <span className="muted">…</span> : <EndpointHealth endpoints={byModel.get(m.id) ?? []} />}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
