// STAND-IN until helper h-router-record's branch is merged (it replaces this file): the recorder's
// signature, recording nothing, so the router's handlers compile and run.
import type { Attempt, PricedUsage, RouterErrorBody, Served } from '@weft/router';
import type { Store } from '@weft/store';
import type { Logger } from 'pino';
import type { Principal } from '../auth/index.ts';

export type RouterOp = 'openai.chat.completions.create' | 'openai.embeddings.create';

export interface RecordStart {
  projectId: string;
  principal: Principal;
  op: RouterOp;
  inputs: Record<string, unknown>;
  recordContent: boolean;
  parent: { trace_id: string; parent_id: string | undefined } | undefined;
  startedAt: Date;
  requestedModel: string;
  stream: boolean;
  clientUserAgent?: string;
}

export interface RecordFinish {
  output: unknown;
  served: Served | undefined;
  priced: PricedUsage | undefined;
  attempts: Attempt[];
  error: RouterErrorBody | undefined;
  endedAt: Date;
}

export interface RecordHandle {
  readonly callId: string;
  readonly traceId: string;
  finish(f: RecordFinish): void;
}

export interface CallRecorder {
  start(s: RecordStart): RecordHandle;
  close(): Promise<void>;
}

export function createCallRecorder(_deps: { store: Store; logger: Logger }): CallRecorder {
  return {
    start: () => ({ callId: crypto.randomUUID(), traceId: crypto.randomUUID(), finish: () => undefined }),
    close: async () => undefined,
  };
}
