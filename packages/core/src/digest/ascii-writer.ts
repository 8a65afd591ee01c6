/**
 * A growable byte buffer for output known to be pure ASCII.
 *
 * Python's json.dumps with ensure_ascii=True only ever emits ASCII, so the
 * canonical form can be written straight into bytes: that is what gets
 * hashed, and it avoids the millions of short-lived strings (and the GC time)
 * that concatenating or joining pieces costs on 100k-row tables.
 */
export class AsciiWriter {
  private buf: Buffer;
  length = 0;

  constructor(initialSize = 4096) {
    this.buf = Buffer.allocUnsafe(initialSize);
  }

  /** Appends a string whose chars are all < 0x80 (the caller guarantees it). */
  write(s: string): void {
    const n = s.length;
    let at = this.length;
    if (at + n > this.buf.length) this.grow(n);
    const buf = this.buf;
    // Short pieces dominate (keys, numbers, separators); a JS loop beats the
    // native call overhead of Buffer#write for them. 16 measured best on a
    // large table (smaller and larger cut-offs were both slower).
    if (n < 16) {
      for (let i = 0; i < n; i++) buf[at++] = s.charCodeAt(i);
    } else {
      buf.write(s, at, 'latin1');
      at += n;
    }
    this.length = at;
  }

  writeByte(c: number): void {
    if (this.length === this.buf.length) this.grow(1);
    this.buf[this.length++] = c;
  }

  /** A view of the bytes written so far; invalidated by the next write or reset. */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }

  toString(): string {
    return this.buf.toString('latin1', 0, this.length);
  }

  /** Empties the writer; drops an oversized buffer so one huge dump does not pin memory. */
  reset(maxRetained: number): void {
    this.length = 0;
    if (this.buf.length > maxRetained) this.buf = Buffer.allocUnsafe(maxRetained);
  }

  private grow(extra: number): void {
    let size = this.buf.length * 2;
    while (size < this.length + extra) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.length);
    this.buf = next;
  }
}
