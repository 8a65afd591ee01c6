// The deadline of the request a database call is made for. The server runs each request inside
// `withDeadline` (apps/server/src/http/deadline.ts); the drivers read it where they wait or send
// a statement, so a frozen or unreachable database cannot hold a request past its deadline, and
// the work of a request that ran out of time stops: a statement not yet sent is refused, a
// PostgreSQL statement running is cancelled. Work outside a request (migrations, the retention
// sweep, `weft copy`) has no deadline.
//
// It travels in an AsyncLocalStorage rather than as a parameter, because the waits and statements
// are deep inside Kysely's driver, below every store method, and one forgotten parameter would
// leave a path unbounded.
import { AsyncLocalStorage } from 'node:async_hooks';
import { deadlineExceeded } from '@weft/core';

export interface Deadline {
  /** `Date.now()` value past which the request has failed. */
  readonly at: number;
  /** What the request is answered when it runs out of time (names the setting). */
  readonly reason: string;
}

const current = new AsyncLocalStorage<Deadline>();

/** Runs `fn` (and everything it starts) under `deadline`. */
export function withDeadline<T>(deadline: Deadline, fn: () => T): T {
  return current.run(deadline, fn);
}

/** The running request's deadline, if any. */
export function currentDeadline(): Deadline | undefined {
  return current.getStore();
}

/** Milliseconds left to the current request (Infinity outside a request); throws when none are left. */
export function remainingMs(what: string): number {
  const deadline = current.getStore();
  if (!deadline) return Infinity;
  const left = deadline.at - Date.now();
  if (left <= 0) throw deadlineError(deadline, what);
  return left;
}

export function deadlineError(deadline: Deadline, what: string): Error {
  return deadlineExceeded(`${deadline.reason} (while ${what})`);
}

/**
 * `promise`, or the deadline's error once it passes first. `onLate` runs if the promise settles
 * after the deadline won (to give back what it acquired).
 */
export function raceDeadline<T>(promise: Promise<T>, what: string, onLate?: (value: T) => void): Promise<T> {
  const deadline = current.getStore();
  if (!deadline) return promise;
  const left = deadline.at - Date.now();
  if (left <= 0) {
    void promise.then(onLate, () => undefined);
    return Promise.reject(deadlineError(deadline, what));
  }
  return new Promise<T>((resolve, reject) => {
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      reject(deadlineError(deadline, what));
    }, left);
    promise.then(
      (value) => {
        clearTimeout(timer);
        if (late) onLate?.(value);
        else resolve(value);
      },
      (err: Error) => {
        clearTimeout(timer);
        if (!late) reject(err);
      },
    );
  });
}
