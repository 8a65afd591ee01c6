import { describe, expect, it } from 'vitest';
import type { RouterConfig, RouterLimits } from '@weft/router';
import type { CallRecorder, RecordFinish, RecordStart } from './record-call.ts';
import { startRequest } from './request-handle.ts';

const start = { projectId: 'acme/p', principal: { username: 'alice', entities: ['acme'], keyId: 'k1' } } as unknown as RecordStart;
const priced: RecordFinish = {
  output: undefined,
  served: undefined,
  priced: { usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }, cost_usd: '0.015' },
  attempts: [],
  error: undefined,
  endedAt: new Date(),
};

function recorder() {
  const started: RecordStart[] = [];
  const finished: RecordFinish[] = [];
  const r: CallRecorder = {
    start(s) {
      started.push(s);
      return { callId: 'c1', traceId: 't1', finish: (f) => finished.push(f) };
    },
    close: async () => {},
  };
  return { r, started, finished };
}

function limits() {
  const accounted: unknown[][] = [];
  const l = { admit: async () => undefined, account: async (...args: unknown[]) => void accounted.push(args) } as unknown as RouterLimits;
  return { l, accounted };
}

describe('startRequest', () => {
  it('records the call and charges its tokens and exact cost to the key and the project', () => {
    const rec = recorder();
    const lim = limits();
    const handle = startRequest({ recorder: rec.r, limits: lim.l }, start, { record_calls: true } as RouterConfig);
    expect(handle.callId).toBe('c1');
    handle.finish(priced);
    expect(rec.finished).toEqual([priced]);
    expect(lim.accounted).toEqual([['k1', 'acme/p', 15, '0.015']]);
  });

  it('with record_calls: false, asks the recorder nothing, gives no call id, and still charges the limits', () => {
    const rec = recorder();
    const lim = limits();
    const handle = startRequest({ recorder: rec.r, limits: lim.l }, start, { record_calls: false } as RouterConfig);
    handle.finish(priced);
    expect(handle.callId).toBe('');
    expect(rec.started).toEqual([]);
    expect(lim.accounted).toHaveLength(1);
  });

  it('charges nothing for an answer without usage', () => {
    const rec = recorder();
    const lim = limits();
    startRequest({ recorder: rec.r, limits: lim.l }, start, undefined).finish({ ...priced, priced: undefined });
    expect(lim.accounted).toEqual([]);
    expect(rec.finished).toHaveLength(1);
  });
});
