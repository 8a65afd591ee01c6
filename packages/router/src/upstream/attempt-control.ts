// The abort controller of one upstream attempt and the timers that fire it: the caller's signal
// (client gone, request deadline), the first-byte budget and the attempt's total budget. It
// remembers why it fired, so a failure is classified by its cause, not by the error undici throws.
export type AbortCause = 'timeout' | 'aborted' | 'released';

export class AttemptControl {
  readonly controller = new AbortController();
  cause: AbortCause | undefined;
  private firstByte: NodeJS.Timeout | undefined;
  private readonly total: NodeJS.Timeout;
  private readonly onCallerAbort = () => this.abort('aborted');

  constructor(
    private readonly caller: AbortSignal,
    total_ms: number,
  ) {
    this.total = setTimeout(() => this.abort('timeout'), total_ms);
    if (caller.aborted) this.abort('aborted');
    else caller.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  startFirstByte(ms: number): void {
    this.firstByte = setTimeout(() => this.abort('timeout'), ms);
  }

  clearFirstByte(): void {
    clearTimeout(this.firstByte);
  }

  /** Aborts the upstream request (first cause wins). */
  abort(cause: AbortCause): void {
    if (this.cause !== undefined) return;
    this.cause = cause;
    this.controller.abort();
  }

  /** Stops the timers and forgets the caller's signal (the attempt is over). */
  dispose(): void {
    clearTimeout(this.firstByte);
    clearTimeout(this.total);
    this.caller.removeEventListener('abort', this.onCallerAbort);
  }
}
