// Pull-based reader of an upstream's server-sent events: the body is read one network chunk at a
// time, only when the caller asks for the next event and none is parsed yet, so a slow client
// slows the upstream (back-pressure) instead of filling memory. Events are whole (eventsource-
// parser re-frames on blank lines whatever the TCP chunking), which the chunk rewriting needs.
import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** One SSE event, or the end of the body. */
export type SseRead = { kind: 'event'; event: EventSourceMessage } | { kind: 'eof' };

/** A failure reading the body: the gap exceeded `idle_ms`, the parser refused it, or the socket failed. */
export class SseReadError extends Error {
  constructor(
    readonly reason: 'idle_timeout' | 'too_large' | 'socket',
    message: string,
  ) {
    super(message);
    this.name = 'SseReadError';
  }
}

/** No single event may hold more than this (a corrupt stream must not grow memory without bound). */
const MAX_EVENT_CHARS = 8 * 1024 * 1024;

export class SseReader {
  private readonly queue: EventSourceMessage[] = [];
  private readonly parser;
  private readonly decoder = new TextDecoder();
  private readonly body: AsyncIterator<Uint8Array>;
  private parseError: string | undefined;
  private ended = false;

  constructor(body: AsyncIterable<Uint8Array>) {
    this.body = body[Symbol.asyncIterator]();
    this.parser = createParser({
      onEvent: (event) => this.queue.push(event),
      onError: (error) => {
        if (error.type === 'max-buffer-size-exceeded') this.parseError = error.message;
      },
      maxBufferSize: MAX_EVENT_CHARS,
    });
  }

  /**
   * The next event. Waits at most `idle_ms` for each network chunk (or until `deadline`, an
   * absolute time from `Date.now()`, when sooner); throws SseReadError on timeout or failure.
   */
  async next(idle_ms: number, deadline?: number): Promise<SseRead> {
    for (;;) {
      const event = this.queue.shift();
      if (event !== undefined) return { kind: 'event', event };
      if (this.parseError !== undefined) throw new SseReadError('too_large', 'An upstream event exceeded the size limit');
      if (this.ended) return { kind: 'eof' };
      const wait = deadline === undefined ? idle_ms : Math.max(0, Math.min(idle_ms, deadline - Date.now()));
      const read = await this.read(wait);
      if (read.done === true) {
        this.ended = true;
        // An event cut before its blank line is incomplete and dropped (as EventSource does).
        this.decoder.decode();
        continue;
      }
      this.parser.feed(this.decoder.decode(read.value, { stream: true }));
    }
  }

  private async read(wait: number): Promise<IteratorResult<Uint8Array>> {
    let timer: NodeJS.Timeout | undefined;
    const pending = this.body.next();
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), wait)));
    try {
      const first = await Promise.race([pending, timeout]);
      if (first === 'timeout') {
        // The read stays pending until the caller destroys the body; its rejection is expected then.
        pending.catch(() => undefined);
        throw new SseReadError('idle_timeout', `No data from the upstream for ${wait} ms`);
      }
      return first;
    } catch (e) {
      if (e instanceof SseReadError) throw e;
      throw new SseReadError('socket', 'The upstream connection failed mid-stream');
    } finally {
      clearTimeout(timer);
    }
  }
}
