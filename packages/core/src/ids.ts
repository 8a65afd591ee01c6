// UUIDv7 (RFC 9562 §5.7) for the ids the store generates (calls, traces, annotation queues,
// trajectory logs) and the server's request ids. Weave's ClickHouse backend generates missing call ids the same way, and the
// leading timestamp keeps new rows near each other in B-tree indexes.
//
// Layout: 48-bit Unix ms timestamp | version 7 (4 bits) | 12 bits | variant 10 (2 bits) | 62 bits.
// The 74 bits after the timestamp are random when the millisecond changes and are incremented
// by one for each further id in the same millisecond (RFC 9562 §6.2, method 2), so ids from one
// process sort in creation order. If the clock steps back, the last timestamp is kept.
import { randomFillSync } from 'node:crypto';

export interface Uuidv7Source {
  /** Unix time in milliseconds. Default Date.now. */
  now?: () => number;
  /** Fills the array with random bytes. Default crypto.randomFillSync. */
  fillRandom?: (bytes: Uint8Array) => void;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const MAX_MS = 2 ** 48 - 1;

/**
 * Random bytes from a 4 KiB pool refilled when used up: one randomFillSync per ~400 ids rather
 * than one per id (a request id per request made it a visible cost of small requests).
 */
function pooledRandom(): (bytes: Uint8Array) => void {
  const pool = new Uint8Array(4096);
  let at = pool.length;
  return (bytes) => {
    if (at + bytes.length > pool.length) {
      randomFillSync(pool);
      at = 0;
    }
    bytes.set(pool.subarray(at, at + bytes.length));
    at += bytes.length;
  };
}

/** A generator with its own monotonic state; `uuidv7` is the process-wide one. */
export function createUuidv7(source: Uuidv7Source = {}): () => string {
  const now = source.now ?? Date.now;
  const fillRandom = source.fillRandom ?? pooledRandom();
  const random = new Uint8Array(10);
  let lastMs = -1;
  // The 74 bits after the timestamp, as three unsigned parts: a (12 bits), hi (30), lo (32).
  let a = 0;
  let hi = 0;
  let lo = 0;

  function reseed(): void {
    fillRandom(random);
    // The top bit of `a` starts at 0, so at least 2^73 increments fit in one millisecond.
    a = (((random[0] ?? 0) << 8) | (random[1] ?? 0)) & 0x7ff;
    hi = (((random[2] ?? 0) << 24) | ((random[3] ?? 0) << 16) | ((random[4] ?? 0) << 8) | (random[5] ?? 0)) & 0x3fffffff;
    lo = (((random[6] ?? 0) << 24) | ((random[7] ?? 0) << 16) | ((random[8] ?? 0) << 8) | (random[9] ?? 0)) >>> 0;
  }

  return function uuidv7(): string {
    const ms = Math.floor(now());
    if (ms > lastMs) {
      lastMs = Math.min(ms, MAX_MS);
      reseed();
    } else if (++lo > 0xffffffff) {
      // Same millisecond (or the clock stepped back): count up, carrying through hi and a.
      lo = 0;
      if (++hi > 0x3fffffff) {
        hi = 0;
        if (++a > 0xfff) {
          // 2^74 ids in one millisecond cannot happen with a random start below 2^73, but stay
          // monotonic anyway by borrowing the next millisecond.
          lastMs = Math.min(lastMs + 1, MAX_MS);
          reseed();
        }
      }
    }
    return format(lastMs, a, hi, lo);
  };
}

function format(ms: number, a: number, hi: number, lo: number): string {
  const msHigh = Math.floor(ms / 2 ** 32); // top 16 bits
  const msLow = ms >>> 0; // bottom 32 bits
  const b = (n: number) => HEX[n & 0xff] as string;
  return (
    b(msHigh >>> 8) +
    b(msHigh) +
    b(msLow >>> 24) +
    b(msLow >>> 16) +
    '-' +
    b(msLow >>> 8) +
    b(msLow) +
    '-' +
    b(0x70 | (a >>> 8)) +
    b(a) +
    '-' +
    b(0x80 | (hi >>> 24)) +
    b(hi >>> 16) +
    '-' +
    b(hi >>> 8) +
    b(hi) +
    b(lo >>> 24) +
    b(lo >>> 16) +
    b(lo >>> 8) +
    b(lo)
  );
}

/** A new UUIDv7, e.g. `0197331c-8b0e-7c3a-9f5e-2d41c7a0b6e1`; increasing within this process. */
export const uuidv7: () => string = createUuidv7();
