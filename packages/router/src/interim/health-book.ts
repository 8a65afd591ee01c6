// Stand-in for h-router-config's HealthBook (same methods) until that branch is merged.
import type { Attempt, RouterConfig, RouterEndpointHealth } from '../types.ts';

export class HealthBook {
  private readonly book = new Map<string, { requests: number; errors: number; until?: number }>();

  constructor(private readonly cooldown_ms = 5000) {}

  record(key: string, outcome: Attempt['outcome'], _latency_ms: number, _ttft_ms: number | undefined, now: number): void {
    const e = this.book.get(key) ?? { requests: 0, errors: 0 };
    e.requests++;
    if (outcome !== 'ok') e.errors++;
    if (outcome === 'status_429') e.until = now + this.cooldown_ms;
    this.book.set(key, e);
  }

  coolingDownUntil(key: string, now: number): number | undefined {
    const until = this.book.get(key)?.until;
    return until !== undefined && until > now ? until : undefined;
  }

  stats(key: string) {
    return this.book.get(key);
  }

  snapshot(config: RouterConfig, now: number): RouterEndpointHealth[] {
    return config.models.flatMap((m) =>
      m.endpoints.map((e) => {
        const key = `${m.id}\u0000${e.provider}\u0000${e.model}`;
        const s = this.book.get(key);
        const until = this.coolingDownUntil(key, now);
        return {
          model: m.id,
          provider: e.provider,
          upstream_model: e.model,
          state: until === undefined ? ('ok' as const) : ('cooling_down' as const),
          cooldown_until: until === undefined ? null : new Date(until).toISOString(),
          requests: s?.requests ?? 0,
          errors: s?.errors ?? 0,
          latency_ms_p50: null,
          ttft_ms_p50: null,
        };
      }),
    );
  }
}
