// When the shared counters' Redis fails or falls silent, the limits are counted in this process
// alone until Redis answers again: the same choice as the server's rate limits
// (apps/server/src/http/rate-limit.ts). Refusing every request while Redis is down would turn a
// cache outage into a router outage; letting everything through would lift every limit. Counted
// alone, a key can get up to one budget per replica for the time of the outage, and what was
// counted alone is not merged back.

export interface RedisCircuit {
  /** Whether Redis is to be asked now. */
  ok(): boolean;
  /** A command failed or timed out: count alone until Redis is tried again. */
  failed(err: Error): void;
}

/** A circuit of its own: after a failure, Redis is tried again once `retryMs` have passed. */
export function retryAfterFailure(retryMs: number, now: () => number, onFailure?: (err: Error) => void): RedisCircuit {
  let openUntil = -Infinity;
  return {
    ok: () => now() >= openUntil,
    failed(err) {
      const first = now() >= openUntil;
      openUntil = now() + retryMs;
      if (first) onFailure?.(err);
    },
  };
}

/**
 * Runs `shared` while the circuit is closed, bounded by `timeoutMs` whatever the client's own
 * settings (a client with an offline queue would otherwise hold the request until Redis is back);
 * on failure or timeout, marks the circuit and runs `alone`.
 */
export async function sharedOrAlone<T>(
  circuit: RedisCircuit | undefined,
  timeoutMs: number,
  shared: (() => Promise<T>) | undefined,
  alone: () => Promise<T>,
): Promise<T> {
  if (shared && circuit?.ok()) {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        shared(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`Redis did not answer within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
    } catch (err) {
      circuit.failed(err instanceof Error ? err : new Error(String(err)));
    } finally {
      clearTimeout(timer);
    }
  }
  return alone();
}
