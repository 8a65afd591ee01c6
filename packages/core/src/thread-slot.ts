// One worker thread of a kind per process (digest-thread.ts, otel/map-thread.ts): started on first
// use, started again after it stops, and given up after `maxStarts` starts, when the work is done
// in place instead. It counts starts and stops: a healthy process stops none.
export class ThreadSlot<T> {
  #thread: T | undefined;
  #starts = 0;
  #stops = 0;

  constructor(
    private readonly start: () => T,
    private readonly maxStarts = 3,
  ) {}

  /** The running thread, started if need be; undefined once given up. */
  get(): T | undefined {
    if (!this.#thread && this.#starts < this.maxStarts) {
      this.#starts++;
      try {
        this.#thread = this.start();
      } catch {
        this.#starts = this.maxStarts;
        this.#stops++;
      }
    }
    return this.#thread;
  }

  /** The running thread, without starting one. */
  get current(): T | undefined {
    return this.#thread;
  }

  /** A thread reports its stop: true if it was the running one (what it was asked is then the caller's to answer). */
  stopped(thread: T): boolean {
    if (this.#thread !== thread) return false;
    this.#thread = undefined;
    this.#stops++;
    return true;
  }

  get counts(): { starts: number; stops: number } {
    return { starts: this.#starts, stops: this.#stops };
  }
}
