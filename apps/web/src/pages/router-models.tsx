// The inference router's catalogue: prices per million tokens, context length, modalities.
import { ErrorView, Loading } from '../components/query-state.tsx';
import { useApi } from '../session.tsx';

/** A per-token price string (exact decimal) as dollars per million tokens. */
export function perMillion(price: string): string {
  const dollars = Number(price) * 1_000_000;
  return dollars === 0 ? 'free' : `$${Number(dollars.toPrecision(6))}`;
}

export function RouterModelsPage() {
  const { $api } = useApi();
  const { data, error, isPending } = $api.useQuery('get', '/inference/router/gateway/models');
  if (isPending) return <Loading what="the model catalogue" />;
  if (error) return <ErrorView error={error} />;
  return (
    <section>
      <h1>Router models</h1>
      <table className="grid" aria-label="Router models">
        <thead>
          <tr>
            <th>Model</th>
            <th>Input / 1M tokens</th>
            <th>Output / 1M tokens</th>
            <th>Context</th>
            <th>Modalities</th>
          </tr>
        </thead>
        <tbody>
          {data.data.map((m) => (
            <tr key={m.id}>
              <td>
                {m.name}
                <div className="muted mono">{m.id}</div>
              </td>
              <td className="num">{perMillion(m.pricing.prompt)}</td>
              <td className="num">{perMillion(m.pricing.completion)}</td>
              <td className="num">{m.context_length.toLocaleString()}</td>
              <td>
                {m.input_modalities.join(', ')} → {m.output_modalities.join(', ')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
