// The two ways figures are taken: HTTP load with autocannon (on 127.0.0.1 only, bounded by
// duration or request count), and a timed loop for in-process baselines. Both report the mean
// time per operation and its rate, so any two can be divided.
import autocannon from 'autocannon';

export interface Target {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Bodies sent in turn instead of `body` (each connection cycles through them). */
  bodies?: readonly string[];
}

export interface Figure {
  /** Operations per second. */
  rate: number;
  /** Mean time of one operation, ms (for HTTP: the time a client waits for a response). */
  meanMs: number;
  /** Operations measured. */
  count: number;
  p99Ms?: number;
}

export interface LoadOptions {
  connections: number;
  /** Seconds; ignored when amount is set. */
  duration?: number;
  /** Exactly this many requests (for slow requests). */
  amount?: number;
  /** Seconds of unmeasured load first (JIT, caches, connection pools). */
  warmup?: number;
  /** Per request, seconds. */
  timeout?: number;
}

/** Sends the request once and fails loudly unless it answers 200; returns the body. */
export async function checkOnce(target: Target): Promise<string> {
  const res = await fetch(target.url, { method: 'POST', headers: target.headers, body: target.body });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${target.url} answered ${res.status}: ${text.slice(0, 500)}`);
  return text;
}

export async function measureHttp(target: Target, opts: LoadOptions): Promise<Figure> {
  const base = {
    url: target.url,
    method: 'POST',
    headers: target.headers,
    body: target.body,
    connections: opts.connections,
    timeout: opts.timeout ?? 120,
    ...(target.bodies ? { requests: target.bodies.map((body) => ({ body })) } : {}),
  };
  if (opts.warmup) await autocannon({ ...base, duration: opts.warmup });
  const result = await autocannon(opts.amount !== undefined ? { ...base, amount: opts.amount } : { ...base, duration: opts.duration ?? 5 });
  const ok = result['2xx'];
  if (ok === 0 && result.errors === 0 && result.non2xx === 0 && opts.amount === undefined)
    throw new Error(`${target.url}: no request finished within the ${opts.duration ?? 5} s window (send a fixed amount instead)`);
  if (result.errors > 0 || result.timeouts > 0 || result.non2xx > 0 || ok === 0) {
    throw new Error(`${target.url}: ${ok} ok, ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  const rate = ok / result.duration;
  // autocannon's latencies are whole milliseconds; with every connection always busy, the mean
  // time of a request is exactly connections / rate (Little's law), at full resolution.
  return { rate, meanMs: (opts.connections * 1000) / rate, p99Ms: result.latency.p99, count: ok };
}

export interface LoopOptions {
  /** Keep going until this many ms have passed… */
  minMs: number;
  /** …and at least this many operations ran… */
  minCount: number;
  /** …but never more than this many. */
  maxCount: number;
  /** One unmeasured call first (default true; off for operations that take seconds). */
  warmup?: boolean;
}

/** Runs `op` back to back and reports the mean. */
export async function measureLoop(op: () => unknown, opts: LoopOptions): Promise<Figure> {
  if (opts.warmup !== false) await op();
  let count = 0;
  const started = performance.now();
  let elapsed = 0;
  while (count < opts.maxCount && (elapsed < opts.minMs || count < opts.minCount)) {
    await op();
    count++;
    elapsed = performance.now() - started;
  }
  return { rate: (count * 1000) / elapsed, meanMs: elapsed / count, count };
}

/** Times one call of `op`, in ms (for one-off costs such as building a sort order). */
export async function timeOnce(op: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await op();
  return performance.now() - started;
}
