// Every wait in the fault kit and its tests is for a condition, with a bound: no fixed sleeps.
// Not vitest's vi.waitUntil: the kit also runs outside a test worker (exit-cleanup.fixture.ts),
// where vi has no state to run on; and a timeout here names what was awaited.

export interface WaitOptions {
  timeoutMs: number;
  /** Pause between two checks; an async condition is never run twice at once. */
  intervalMs?: number;
  /** Named in the error when the bound passes. */
  what: string;
}

type Falsy = false | 0 | '' | null | undefined;

/** Resolves with the condition's first truthy value; rejects once `timeoutMs` passes without one. */
export async function waitFor<T>(
  condition: () => T | Falsy | Promise<T | Falsy>,
  { timeoutMs, intervalMs = 25, what }: WaitOptions,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await within(Promise.resolve(condition()), Math.max(1, deadline - Date.now()), what);
    if (value) return value;
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, Math.min(intervalMs, Math.max(0, deadline - Date.now()))));
  }
}

/** Settles as `promise` does, or rejects once `timeoutMs` passes, naming what was awaited. */
export async function within<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * For "nothing happens" (no byte crosses a stalled proxy): polls `condition` for `forMs` and
 * fails as soon as it turns true. A negative needs a window; keep it short.
 */
export async function staysFalse(
  condition: () => boolean | Promise<boolean>,
  { forMs, what }: { forMs: number; what: string },
): Promise<void> {
  const deadline = Date.now() + forMs;
  for (;;) {
    if (await condition()) throw new Error(`${what} happened`);
    if (Date.now() >= deadline) return;
    await new Promise((resolve) => setTimeout(resolve, Math.min(20, deadline - Date.now())));
  }
}
