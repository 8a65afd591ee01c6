// Streamed requests timed event by event: the time to the first chunk and the gaps between
// chunks as the client sees them, so batching by the router (gaps collapsing to zero then one
// long wait) shows next to the upstream's own gaps.
import { Agent, request } from 'node:http';

export interface StreamTiming {
  /** From sending the request to the first byte of the body. */
  ttftMs: number;
  /** Between consecutive `data:` events after the first. */
  gapsMs: number[];
}

export function timedStream(agent: Agent, url: URL, headers: Record<string, string>, body: string): Promise<StreamTiming> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return reject(new Error(`${url.href} answered ${res.statusCode}`));
      }
      let ttftMs: number | undefined;
      let last = 0;
      let pending = '';
      const gapsMs: number[] = [];
      res.setEncoding('utf8');
      res.on('data', (text: string) => {
        const now = performance.now();
        ttftMs ??= now - started;
        pending += text;
        // Counted per complete event: a TCP read may carry several, or part of one.
        let end: number;
        while ((end = pending.indexOf('\n\n')) >= 0) {
          pending = pending.slice(end + 2);
          if (last > 0) gapsMs.push(now - last);
          last = now;
        }
      });
      res.on('end', () => resolve({ ttftMs: ttftMs ?? Number.NaN, gapsMs }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
