// The playground's run: start one streamed completion, follow it as it arrives, time it (time to
// first token, total latency), and stop it (Stop, a new run, or leaving the page abort the request,
// which the router passes on to the upstream).
import type { ChatCompletionReq } from '@weft/types';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useApi } from '../session.tsx';
import { emptyStream, errorDetailOf, type OpenAiErrorDetail, type StreamState } from './chat-stream.ts';
import { ChatRequestError, runChat } from './run-chat.ts';

export type RunStatus = 'idle' | 'running' | 'done' | 'stopped' | 'failed';

export interface ChatRun {
  status: RunStatus;
  stream: StreamState;
  /** The HTTP status of a refused request. */
  httpStatus?: number;
  /** A refused request, an error event, or a stream that ended without `[DONE]`. */
  error?: OpenAiErrorDetail;
  ttftMs?: number;
  latencyMs?: number;
  callId?: string;
  /** The project the call was recorded in, when the run named one. */
  project?: string;
}

const idle: ChatRun = { status: 'idle', stream: emptyStream() };

export function useChatRun() {
  const { client } = useApi();
  const [run, setRun] = useState<ChatRun>(idle);
  const controller = useRef<AbortController | undefined>(undefined);

  const stop = useCallback(() => controller.current?.abort(), []);
  useEffect(() => stop, [stop]);

  const start = useCallback(
    (body: ChatCompletionReq, project: string | undefined) => {
      controller.current?.abort();
      const abort = new AbortController();
      controller.current = abort;
      const startedAt = performance.now();
      let ttftMs: number | undefined;
      const since = () => Math.round(performance.now() - startedAt);
      const update = (next: Partial<ChatRun>) => {
        // A stopped run's late events never overwrite the next run.
        if (controller.current === abort) setRun((r) => ({ ...r, ...next }));
      };
      setRun({ status: 'running', stream: emptyStream(), ...(project ? { project } : {}) });
      runChat({
        client,
        body,
        ...(project ? { project } : {}),
        signal: abort.signal,
        onState: (stream) => {
          if (ttftMs === undefined && stream.hasOutput) ttftMs = since();
          update({ stream, ttftMs });
        },
      }).then(
        ({ state, callId }) => {
          const incomplete = !state.done && !state.error;
          const error = state.error ?? (incomplete ? errorDetailOf('The stream ended before the answer was complete.') : undefined);
          update({ status: error ? 'failed' : 'done', stream: state, latencyMs: since(), ttftMs, callId, error });
        },
        (err: unknown) => {
          if (abort.signal.aborted) return update({ status: 'stopped', latencyMs: since(), ttftMs });
          if (err instanceof ChatRequestError)
            return update({ status: 'failed', httpStatus: err.status, error: err.detail, latencyMs: since() });
          update({ status: 'failed', error: errorDetailOf(err instanceof Error ? err.message : String(err)), latencyMs: since() });
        },
      );
    },
    [client],
  );

  return { run, start, stop };
}
