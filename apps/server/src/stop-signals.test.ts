import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { onStopSignals, SAME_REQUEST_MS, type StopSignal } from './stop-signals.ts';

function setUp() {
  const signals = new EventEmitter();
  const calls: string[] = [];
  let clock = 0;
  const off = onStopSignals(
    { graceful: (signal) => calls.push(`graceful ${signal}`), immediate: (signal) => calls.push(`immediate ${signal}`) },
    { signals, now: () => clock },
  );
  const receive = (signal: StopSignal, at: number) => {
    clock = at;
    signals.emit(signal);
  };
  return { calls, receive, off, signals };
}

describe('stop signals', () => {
  it('drains on the first signal and stops at once on a later one', () => {
    const { calls, receive } = setUp();
    receive('SIGTERM', 0);
    expect(calls).toEqual(['graceful SIGTERM']);
    receive('SIGTERM', SAME_REQUEST_MS);
    expect(calls).toEqual(['graceful SIGTERM', 'immediate SIGTERM']);
  });

  it('takes copies of the first signal that arrive with it (Ctrl-C forwarded by pnpm) as the first', () => {
    const { calls, receive } = setUp();
    receive('SIGINT', 100);
    receive('SIGINT', 103);
    // pnpm answers a second SIGINT with SIGTERM to its child: a copy, too, when it comes at once.
    receive('SIGTERM', 140);
    expect(calls).toEqual(['graceful SIGINT']);
    receive('SIGINT', 100 + SAME_REQUEST_MS + 1);
    expect(calls).toEqual(['graceful SIGINT', 'immediate SIGINT']);
  });

  it('stops listening when told', () => {
    const { calls, receive, off, signals } = setUp();
    off();
    receive('SIGTERM', 0);
    expect(calls).toEqual([]);
    expect(signals.listenerCount('SIGTERM') + signals.listenerCount('SIGINT')).toBe(0);
  });
});
