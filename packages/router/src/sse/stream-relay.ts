// The events of a streamed answer, relayed one upstream event per pull: chunks rewritten (`model`,
// `provider`, the usage chunk priced and left out unless asked), accumulated for the record, and
// ended by `[DONE]` or by exactly one error event (upstream error, idle gap, cut connection, EOF
// before every choice finished). Stopping the iteration, or the caller's signal, aborts the upstream.
import { clientGone, errorEvent, redact, streamFailed } from '../relay-errors.ts';
import { priceUsage } from '../relay-deps.ts';
import type { ChatCompletionChunk, PricedUsage, RouterErrorBody, StreamResult, Usage } from '../types.ts';
import type { AttemptControl } from '../upstream/attempt-control.ts';
import type { Body } from '../upstream/send-attempt.ts';
import { ChunkAccumulator } from './accumulate-chunks.ts';
import { SseReadError, type SseReader } from './sse-reader.ts';
import type { ServedStream } from './served-stream.ts';

export interface RelayedStream {
  events: AsyncIterable<string>;
  result: Promise<StreamResult>;
}

/** Parses one data payload: a chunk, the end, or an upstream error (its message redacted). */
export type Parsed = { kind: 'chunk'; chunk: ChatCompletionChunk } | { kind: 'done' } | { kind: 'error'; error: RouterErrorBody };

export function parsePayload(data: string, event: string | undefined, secrets: readonly string[]): Parsed {
  if (data.trim() === '[DONE]') return { kind: 'done' };
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return { kind: 'error', error: streamFailed('invalid_response', 'The upstream sent an event that is not JSON') };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { kind: 'error', error: streamFailed('invalid_response', 'The upstream sent an event that is not a chunk') };
  const err = (value as { error?: unknown }).error;
  if (event === 'error' || (err !== undefined && err !== null)) {
    const m = typeof err === 'object' && err !== null ? (err as { message?: unknown }).message : err;
    const message = typeof m === 'string' ? redact(m.slice(0, 500), secrets) : 'unknown error';
    return { kind: 'error', error: streamFailed('upstream_error', `The upstream failed mid-stream: ${message}`) };
  }
  return { kind: 'chunk', chunk: value as ChatCompletionChunk };
}

export function relayStream(
  s: ServedStream,
  reader: SseReader,
  body: Body,
  control: AttemptControl,
  first: ChatCompletionChunk,
): RelayedStream {
  const acc = new ChunkAccumulator();
  const queue: string[] = [];
  let priced: PricedUsage | undefined;
  let finished = false;
  let settle!: (r: StreamResult) => void;
  const result = new Promise<StreamResult>((r) => (settle = r));

  const finish = (error?: RouterErrorBody) => {
    if (finished) return;
    finished = true;
    control.signal.removeEventListener('abort', onAbort);
    if (error !== undefined || !body.readableEnded) body.destroy();
    control.dispose();
    s.report(error, priced);
    settle({ completion: acc.completion(s.served.model, s.served.provider), priced, ttft_ms: s.ttft_ms, ...(error ? { error } : {}) });
  };
  // The caller's signal (client gone, deadline) ends the stream even while nobody pulls.
  const onAbort = () => {
    if (control.cause === 'aborted') finish(clientGone());
  };
  control.signal.addEventListener('abort', onAbort, { once: true });

  const fail = (error: RouterErrorBody) => {
    queue.push(errorEvent(error));
    finish(error);
  };

  const take = (chunk: ChatCompletionChunk) => {
    acc.add(chunk);
    chunk.model = s.served.model;
    chunk.provider = s.served.provider;
    if (chunk.usage !== undefined && chunk.usage !== null && typeof chunk.usage === 'object') {
      priced = priceUsage(chunk.usage, s.served.pricing);
      const usage: Usage = { ...chunk.usage, cost: Number(priced.cost_usd) };
      acc.usage = usage;
      if (s.include_usage) chunk.usage = usage;
      else if (Array.isArray(chunk.choices) && chunk.choices.length === 0)
        return; // the usage chunk the caller did not ask for
      else chunk.usage = null;
    }
    queue.push(JSON.stringify(chunk));
  };
  take(first);

  const pull = async (): Promise<void> => {
    while (queue.length === 0 && !finished) {
      let read;
      try {
        read = await reader.next(s.idle_ms);
      } catch (e) {
        if (control.cause === 'aborted') return finish(clientGone());
        if (control.cause === 'timeout') return fail(streamFailed('upstream_timeout', 'The upstream exceeded its total time'));
        if (e instanceof SseReadError && e.reason === 'idle_timeout')
          return fail(streamFailed('upstream_timeout', `The upstream sent nothing for ${s.idle_ms} ms`));
        return fail(streamFailed('upstream_error', 'The upstream connection was cut mid-stream'));
      }
      if (read.kind === 'eof') {
        if (acc.finished()) {
          queue.push('[DONE]');
          return finish();
        }
        return fail(streamFailed('upstream_incomplete', 'The upstream ended the stream before it finished'));
      }
      const parsed = parsePayload(read.event.data, read.event.event, s.secrets);
      if (parsed.kind === 'done') {
        queue.push('[DONE]');
        return finish();
      }
      if (parsed.kind === 'error') return fail(parsed.error);
      take(parsed.chunk);
    }
  };

  let chain: Promise<unknown> = Promise.resolve();
  const iterator: AsyncIterator<string> = {
    next: () => {
      const step = chain.then(async (): Promise<IteratorResult<string>> => {
        await pull();
        const value = queue.shift();
        return value === undefined ? { done: true, value: undefined } : { done: false, value };
      });
      chain = step.catch(() => undefined);
      return step;
    },
    // Called when the consumer stops early: the upstream is aborted now, not after a pending read.
    return: async () => {
      if (!finished) {
        control.abort('released');
        finish(clientGone());
      }
      queue.length = 0;
      return { done: true, value: undefined };
    },
  };
  return { events: { [Symbol.asyncIterator]: () => iterator }, result };
}
