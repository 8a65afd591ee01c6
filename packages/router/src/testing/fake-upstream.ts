// A test-owned OpenAI-compatible upstream (node:http), the one thing router tests fake since real
// providers are outside our control. Each request takes the next scripted step (or the default):
// answer, stream with gaps and holds, fail with a status, stall, cut the socket. It records what it
// received and notices when the client goes away, so tests wait on events, never on sleeps.
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { completion, embeddings, type FakeUsage, type Json, type JsonObject } from './fake-chunks.ts';

export * from './fake-chunks.ts';
export * from './test-config.ts';

/** One element of a scripted stream. */
export type StreamItem =
  | JsonObject
  /** Raw bytes written as they are (comment lines, an event cut in two, garbage). */
  | { raw: string }
  /** Waits for `upstream.release()` before going on. */
  | { hold: true }
  /** Waits this long (real time) before the next item. */
  | { gap_ms: number };

export type FakeStep =
  /** 200 with a JSON body; default: a completion saying "Hello" (or embeddings on /embeddings). */
  | { kind: 'json'; body?: Json; status?: number; headers?: Record<string, string> }
  /** An error status with an OpenAI error body; `retry_after` / `retry_after_ms` set those headers. */
  | { kind: 'error'; status: number; body?: Json; retry_after?: string; retry_after_ms?: string }
  /**
   * 200 text/event-stream: each item as `data: …\n\n`; then the usage chunk (only when the request
   * asked for `stream_options.include_usage`), then, by `end`: `done` writes `data: [DONE]` and ends
   * (default), `eof` ends without [DONE], `stall` keeps the socket open and silent, `destroy` cuts it.
   */
  | {
      kind: 'stream';
      items: StreamItem[];
      usage?: FakeUsage;
      end?: 'done' | 'eof' | 'stall' | 'destroy';
      /** Waits this long between events (real time). */
      gap_ms?: number;
      /** Writes each event in two writes, a turn of the event loop apart, cut mid-JSON. */
      split_events?: boolean;
    }
  /** Reads the request and never answers: a stall before the first byte. */
  | { kind: 'stall' }
  /** Reads the request and closes the socket without an answer. */
  | { kind: 'destroy' };

export interface ReceivedRequest {
  index: number;
  method: string;
  /** Path with query, e.g. `/v1/chat/completions`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined when empty or not JSON). */
  body: unknown;
  /** Events written so far on a streamed answer. */
  events_written: number;
  /** True once the client closed the connection before the answer was complete. */
  client_closed: boolean;
  /** Resolves when the client closes the connection before the answer was complete (an abort). */
  closed: Promise<void>;
  /** Resolves (with events written so far) the first time a write had to wait for the client to read. */
  blocked: Promise<number>;
  /**
   * Resolves (with events written so far) once a write has waited `ms` for the client to read:
   * the client has stopped reading (back-pressure reached this upstream).
   */
  stuck(ms: number): Promise<number>;
  /** Resolves when the answer was fully written, or the connection ended. */
  done: Promise<void>;
}

export interface FakeUpstream {
  /** `http://127.0.0.1:<port>/v1`, the provider's `base_url`. */
  readonly base_url: string;
  /** Every request received, in order. */
  readonly requests: ReceivedRequest[];
  /** Queues steps, taken one per request in order. */
  script(...steps: FakeStep[]): void;
  /** The step used when the queue is empty (initially `{kind:'json'}`). */
  setDefault(step: FakeStep): void;
  /** Resolves with the index-th request (0-based) once it has arrived. */
  request(index: number): Promise<ReceivedRequest>;
  /** Lets one `{hold: true}` go on (the current one, or the next reached). */
  release(): void;
  /** Resolves when a stream is waiting at a hold. */
  holding(): Promise<void>;
  close(): Promise<void>;
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
}

const deferred = <T>(): Deferred<T> => {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
};

const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const parseBody = (text: string): unknown => {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

const asksUsage = (body: unknown): boolean => {
  if (typeof body !== 'object' || body === null) return false;
  const opts = (body as { stream_options?: unknown }).stream_options;
  return typeof opts === 'object' && opts !== null && (opts as { include_usage?: unknown }).include_usage === true;
};

export const startFakeUpstream = async (): Promise<FakeUpstream> => {
  const queue: FakeStep[] = [];
  let fallback: FakeStep = { kind: 'json' };
  const requests: ReceivedRequest[] = [];
  const arrivals: Deferred<ReceivedRequest>[] = [];
  const arrival = (i: number): Deferred<ReceivedRequest> => (arrivals[i] ??= deferred<ReceivedRequest>());
  let permits = 0;
  let holdWaiters: (() => void)[] = [];
  let holdingWaiters: (() => void)[] = [];

  const waitRelease = (rec: ReceivedRequest): Promise<void> => {
    if (permits > 0) {
      permits--;
      return Promise.resolve();
    }
    let wake!: () => void;
    const p = new Promise<void>((r) => holdWaiters.push((wake = r)));
    for (const w of holdingWaiters) w();
    holdingWaiters = [];
    // A client gone while held gives its place up, so the next release() reaches a live stream.
    void rec.closed.then(() => (holdWaiters = holdWaiters.filter((w) => w !== wake)));
    return Promise.race([p, rec.closed]);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const closed = deferred<void>();
    const blocked = deferred<number>();
    const done = deferred<void>();
    const rec: ReceivedRequest = {
      index: requests.length,
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: req.headers,
      body: parseBody(Buffer.concat(chunks).toString('utf8')),
      events_written: 0,
      client_closed: false,
      closed: closed.promise,
      blocked: blocked.promise,
      done: done.promise,
      stuck: (ms) =>
        new Promise<number>((resolve) => {
          const check = () => {
            if (waitingSince !== undefined && Date.now() - waitingSince >= ms) resolve(rec.events_written);
            else setTimeout(check, Math.max(1, Math.min(ms, 20)));
          };
          check();
        }),
    };
    let wasBlocked = false;
    let waitingSince: number | undefined;
    res.on('close', () => {
      if (!res.writableFinished) {
        rec.client_closed = true;
        closed.resolve();
      }
      done.resolve();
    });
    requests.push(rec);
    arrival(rec.index).resolve(rec);

    const alive = () => !res.destroyed && !rec.client_closed;
    const write = async (text: string) => {
      if (!alive()) return;
      if (!res.write(text)) {
        if (!wasBlocked) {
          wasBlocked = true;
          blocked.resolve(rec.events_written);
        }
        waitingSince = Date.now();
        await Promise.race([once(res, 'drain'), rec.closed]);
        waitingSince = undefined;
      }
    };

    if (rec.method === 'GET' && rec.path.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'upstream-model', object: 'model', created: 0, owned_by: 'fake' }] }));
      return;
    }
    const step = queue.shift() ?? fallback;
    switch (step.kind) {
      case 'json': {
        const body = step.body ?? (rec.path.endsWith('/embeddings') ? embeddings([[0.5, -0.25, 1]]) : completion('Hello'));
        res.writeHead(step.status ?? 200, { 'content-type': 'application/json', ...step.headers });
        res.end(JSON.stringify(body));
        return;
      }
      case 'error': {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (step.retry_after !== undefined) headers['retry-after'] = step.retry_after;
        if (step.retry_after_ms !== undefined) headers['retry-after-ms'] = step.retry_after_ms;
        res.writeHead(step.status, headers);
        res.end(JSON.stringify(step.body ?? { error: { message: `fake ${step.status}`, type: 'server_error', param: null, code: null } }));
        return;
      }
      case 'stall':
        return; // the socket stays open until the client gives up
      case 'destroy':
        res.socket?.destroy();
        return;
      case 'stream': {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.flushHeaders();
        const writeEvent = async (payload: string) => {
          const text = `data: ${payload}\n\n`;
          if (step.split_events === true) {
            const cut = Math.floor(text.length / 2);
            await write(text.slice(0, cut));
            await new Promise<void>((r) => setImmediate(r));
            await write(text.slice(cut));
          } else await write(text);
          rec.events_written++;
          if (step.gap_ms !== undefined) await delay(step.gap_ms);
        };
        for (const item of step.items) {
          if (!alive()) return;
          if ('raw' in item && typeof item.raw === 'string') await write(item.raw);
          else if ('hold' in item && item.hold === true) await waitRelease(rec);
          else if ('gap_ms' in item && typeof item.gap_ms === 'number') await delay(item.gap_ms);
          else await writeEvent(JSON.stringify(item));
        }
        if (!alive()) return;
        if (step.usage !== undefined && asksUsage(rec.body)) {
          const first = step.items.find((i): i is JsonObject => !('raw' in i) && !('hold' in i) && !('gap_ms' in i));
          await writeEvent(
            JSON.stringify({
              id: first?.id ?? 'chatcmpl-fake',
              object: 'chat.completion.chunk',
              created: first?.created ?? 1_700_000_000,
              model: first?.model ?? 'upstream-model',
              choices: [],
              usage: step.usage,
            }),
          );
        }
        const end = step.end ?? 'done';
        if (end === 'done') {
          await write('data: [DONE]\n\n');
          res.end();
        } else if (end === 'eof') res.end();
        else if (end === 'destroy') {
          // Cut after what was written reached the socket (destroy drops data still buffered).
          await new Promise<void>((r) => res.write('', () => r()));
          res.socket?.destroy();
        }
        return; // stall: leave it open
      }
    }
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    base_url: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (...steps) => void queue.push(...steps),
    setDefault: (step) => void (fallback = step),
    request: (index) => arrival(index).promise,
    release: () => {
      const w = holdWaiters.shift();
      if (w) w();
      else permits++;
    },
    holding: () => (holdWaiters.length > 0 ? Promise.resolve() : new Promise<void>((r) => holdingWaiters.push(r))),
    close: async () => {
      for (const w of holdWaiters) w();
      holdWaiters = [];
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
};
