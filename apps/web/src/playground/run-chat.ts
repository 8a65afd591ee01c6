// One streamed chat completion through the router, via the typed client: the answer's bytes are
// decoded and split into server-sent events by eventsource-parser, and each event's data is
// folded into the StreamState handed to `onState`.
import type { WeftClient } from '@weft/client';
import type { ChatCompletionReq } from '@weft/types';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { applyEvent, emptyStream, errorDetailOf, type OpenAiErrorDetail, type StreamState } from './chat-stream.ts';

/** The router refused the request (non-2xx): its error in OpenAI's shape, and the status. */
export class ChatRequestError extends Error {
  constructor(
    readonly status: number,
    readonly detail: OpenAiErrorDetail,
  ) {
    super(detail.message);
  }
}

export interface RunChatOptions {
  client: WeftClient;
  body: ChatCompletionReq;
  /** `entity/project` to record the call in (OpenAI-Project); undefined: the router's default. */
  project?: string;
  signal: AbortSignal;
  onState: (state: StreamState) => void;
}

export interface RunChatAnswer {
  state: StreamState;
  /** The id of the call that records the request (X-Weft-Call-Id). */
  callId?: string;
}

export async function runChat({ client, body, project, signal, onState }: RunChatOptions): Promise<RunChatAnswer> {
  const { data, error, response } = await client.raw.POST('/inference/router/gateway/chat/completions', {
    body,
    params: { header: project ? { 'OpenAI-Project': project } : {} },
    headers: { Accept: 'text/event-stream' },
    parseAs: 'stream',
    signal,
  });
  if (!response.ok || !data) throw new ChatRequestError(response.status, errorDetailOf(error, response.status));
  const type = response.headers.get('Content-Type') ?? '';
  if (!type.startsWith('text/event-stream')) {
    await data.cancel();
    throw new ChatRequestError(
      response.status,
      errorDetailOf(`Expected a stream of events, the server answered ${type || 'no Content-Type'}`),
    );
  }
  const callId = response.headers.get('X-Weft-Call-Id') ?? undefined;
  let state = emptyStream();
  const events = data.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream({ onError: 'terminate' }));
  // Reading the events ends when the server closes the stream, or with an AbortError on Stop.
  for await (const event of iterate(events)) {
    state = applyEvent(state, event.data);
    onState(state);
    if (state.done || state.error) break;
  }
  return { state, ...(callId ? { callId } : {}) };
}

// ReadableStream's async iteration is not in every browser the app supports: read it by hand,
// releasing (and so cancelling) the stream when the caller stops early.
async function* iterate<T>(stream: ReadableStream<T>): AsyncGenerator<T> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
