// A closed-loop HTTP load for the router scenario: N connections, each sending its next request
// as soon as the last answer ended, timing every request with performance.now() (autocannon's
// whole-millisecond latencies are too coarse for "≤ 1 ms added"). Direct and routed runs use the
// same loop in the same process, so its own cost cancels out of the comparison.
import { Agent, request } from 'node:http';

export interface LoopFigure {
  rate: number;
  p50Ms: number;
  p99Ms: number;
  count: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (rank - lo);
}

/** One POST; resolves with the status and the whole body. */
export function post(agent: Agent, url: URL, headers: Record<string, string>, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export async function closedLoop(
  target: { url: string; headers: Record<string, string>; body: string },
  opts: { connections: number; seconds: number; warmupSeconds: number },
): Promise<LoopFigure> {
  const agent = new Agent({ keepAlive: true, maxSockets: opts.connections });
  const url = new URL(target.url);
  try {
    const run = async (seconds: number, latencies: number[] | undefined) => {
      const until = performance.now() + seconds * 1000;
      await Promise.all(
        Array.from({ length: opts.connections }, async () => {
          while (performance.now() < until) {
            const started = performance.now();
            const { status, text } = await post(agent, url, target.headers, target.body);
            if (status !== 200) throw new Error(`${target.url} answered ${status}: ${text.slice(0, 300)}`);
            latencies?.push(performance.now() - started);
          }
        }),
      );
    };
    await run(opts.warmupSeconds, undefined);
    const latencies: number[] = [];
    const started = performance.now();
    await run(opts.seconds, latencies);
    const elapsed = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    return {
      rate: latencies.length / elapsed,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      count: latencies.length,
    };
  } finally {
    agent.destroy();
  }
}
