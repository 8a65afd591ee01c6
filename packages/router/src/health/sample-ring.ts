/**
 * The most recent `capacity` samples of one measure, for a median that follows the endpoint's
 * current behaviour in fixed memory (an endpoint that served millions of requests holds no more
 * than one that served a hundred).
 */
export class SampleRing {
  private readonly values: number[] = [];
  private next = 0;
  private median: number | null | undefined = null;

  constructor(private readonly capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new Error(`SampleRing: capacity ${capacity} must be a positive integer`);
  }

  push(value: number): void {
    if (!Number.isFinite(value)) return;
    if (this.values.length < this.capacity) this.values.push(value);
    else this.values[this.next] = value;
    this.next = (this.next + 1) % this.capacity;
    this.median = undefined;
  }

  get size(): number {
    return this.values.length;
  }

  /** The median of the samples held (mean of the middle two when even); null when empty. Cached until the next push. */
  p50(): number | null {
    if (this.median !== undefined) return this.median;
    const sorted = [...this.values].sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    this.median = sorted.length === 0 ? null : sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
    return this.median;
  }
}
