// Long work on the main thread gives the event loop a turn every few milliseconds, so no request
// holds every other one (the guide's ~50 ms rule; /health is measured under attack in `pnpm
// bench`). One clock for the store's loops, the answer writers and the body parsers' callers.
import { setImmediate as nextTurn } from 'node:timers/promises';

/** How long a piece of work runs before it gives the event loop a turn. */
export const TURN_MS = 5;

export class TurnClock {
  #start = performance.now();
  constructor(private readonly ms = TURN_MS) {}

  /** True when this turn has run `ms`: time to `await clock.pass()`. */
  get due(): boolean {
    return performance.now() - this.#start > this.ms;
  }

  /** Gives the event loop a turn (timers, I/O, other requests) and starts a new one. */
  async pass(): Promise<void> {
    await nextTurn();
    this.#start = performance.now();
  }

  /** Passes only when due. */
  async maybePass(): Promise<void> {
    if (this.due) await this.pass();
  }
}

/** `items.map(fn)`, with a turn for the event loop every TURN_MS. */
export async function mapInTurns<T, U>(items: readonly T[], fn: (item: T, index: number) => U, clock = new TurnClock()): Promise<U[]> {
  const out = new Array<U>(items.length);
  for (let i = 0; i < items.length; i++) {
    out[i] = fn(items[i]!, i);
    if (clock.due) await clock.pass();
  }
  return out;
}
