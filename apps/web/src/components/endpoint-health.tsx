// A router model's provider endpoints, in routing order, with what this server replica measured:
// in rotation or cooling down (until when), attempts, errors (and their share), median latency
// and time to first token.
import type { RouterEndpoint } from '@weft/types';
import { formatDuration } from '../call-facts.ts';

const ms = (v: number | null) => (v === null ? '—' : formatDuration(Math.round(v)));

function errorShare(e: RouterEndpoint): string {
  if (e.requests === 0) return '';
  return ` (${Number(((e.errors / e.requests) * 100).toPrecision(2))}%)`;
}

export function EndpointHealth({ endpoints }: { endpoints: RouterEndpoint[] }) {
  if (endpoints.length === 0) return <span className="muted">—</span>;
  return (
    <ul className="endpoints">
      {endpoints.map((e) => (
        <li key={`${e.provider}\u0000${e.upstream_model}`}>
          <strong>{e.provider}</strong> <span className="muted mono">{e.upstream_model}</span>{' '}
          {e.state === 'ok' ? (
            <span className="badge badge-success">ok</span>
          ) : (
            <span className="badge badge-error">
              cooling down{e.cooldown_until ? ` until ${new Date(e.cooldown_until).toLocaleTimeString()}` : ''}
            </span>
          )}
          <div className="muted">
            {e.requests} requests · {e.errors} errors{errorShare(e)} · p50 {ms(e.latency_ms_p50)} · TTFT {ms(e.ttft_ms_p50)}
          </div>
        </li>
      ))}
    </ul>
  );
}
