// SIGTERM and SIGINT stop the `weft` command: the first gracefully (the server drains, main.ts; a
// transfer stops between batches, cli/transfer-commands.ts), a later one at once.
//
// One request to stop often arrives as several signals within milliseconds. Ctrl-C reaches every
// process of the terminal's foreground process group, pnpm among them, and pnpm forwards it to the
// process its script started, which is the command itself (the root scripts exec it); systemd
// signals every process of a unit, and pnpm forwards that too. Taken for an operator's second
// signal, the copy would cut every request in flight. So any signal within `sameRequestMs` of the
// first is a copy of it (whatever its kind: a chain of forwarders may turn one into another), and
// a signal after that stops at once.

import type { EventEmitter } from 'node:events';

export type StopSignal = 'SIGINT' | 'SIGTERM';

export const STOP_SIGNALS: readonly StopSignal[] = ['SIGINT', 'SIGTERM'];

/** Copies of one request arrive within milliseconds, even when the machine is busy. */
export const SAME_REQUEST_MS = 1000;

export interface StopHandlers {
  /** The first signal: stop gracefully. */
  graceful(signal: StopSignal): void;
  /** A signal after the first and its copies: the operator does not want to wait. */
  immediate(signal: StopSignal): void;
}

export interface StopSignalOptions {
  /** Where the signals are received (process; a test passes an emitter). */
  signals?: Pick<EventEmitter, 'on' | 'off'>;
  /** Milliseconds of a monotonic clock. */
  now?: () => number;
  sameRequestMs?: number;
}

/** Listens for SIGTERM and SIGINT; returns what stops listening. */
export function onStopSignals(handlers: StopHandlers, options: StopSignalOptions = {}): () => void {
  const { signals = process, now = () => performance.now(), sameRequestMs = SAME_REQUEST_MS } = options;
  let first: number | undefined;
  const listeners = STOP_SIGNALS.map((signal) => {
    const listener = () => {
      const at = now();
      if (first === undefined) {
        first = at;
        handlers.graceful(signal);
      } else if (at - first >= sameRequestMs) {
        handlers.immediate(signal);
      }
    };
    signals.on(signal, listener);
    return [signal, listener] as const;
  });
  return () => {
    for (const [signal, listener] of listeners) signals.off(signal, listener);
  };
}
