// uuidv7 (ids.ts): the ids the store generates (calls, traces, queues, logs) and the server's
// request ids.
import { describe, expect, it } from 'vitest';
import { createUuidv7, uuidv7 } from './ids.ts';

const FORMAT = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The 48-bit timestamp of a UUIDv7. */
const msOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

describe('uuidv7', () => {
  it('has the RFC 9562 layout: version 7, variant 10, the current ms timestamp', () => {
    const before = Date.now();
    const id = uuidv7();
    const after = Date.now();
    expect(id).toMatch(FORMAT);
    expect(msOf(id)).toBeGreaterThanOrEqual(before);
    expect(msOf(id)).toBeLessThanOrEqual(after);
  });

  it('encodes the timestamp big-endian over all 48 bits', () => {
    const zeros = (bytes: Uint8Array) => bytes.fill(0);
    expect(createUuidv7({ now: () => 0, fillRandom: zeros })()).toBe('00000000-0000-7000-8000-000000000000');
    const max = createUuidv7({ now: () => 2 ** 48 - 1, fillRandom: zeros })();
    expect(max).toBe('ffffffff-ffff-7000-8000-000000000000');
    expect(msOf(createUuidv7({ now: () => 1_717_407_687_512 })())).toBe(1_717_407_687_512);
  });

  it('puts random bits after the timestamp, keeping version and variant', () => {
    const ones = (bytes: Uint8Array) => bytes.fill(0xff);
    // The first random bit is cleared so a millisecond has room for 2^73 increments.
    expect(createUuidv7({ now: () => 0, fillRandom: ones })()).toBe('00000000-0000-77ff-bfff-ffffffffffff');
  });

  it('is unique and strictly increasing, also for many ids within one millisecond', () => {
    const ids = Array.from({ length: 20_000 }, () => uuidv7());
    for (let i = 1; i < ids.length; i++) expect((ids[i - 1] as string) < (ids[i] as string)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => FORMAT.test(id))).toBe(true);
    // The loop is fast enough that most ids share their millisecond with a neighbour.
    expect(new Set(ids.map(msOf)).size).toBeLessThan(ids.length);
  });

  it('counts up within a millisecond, carrying across the random parts', () => {
    // Random part: a = 0x7ff, hi = 0x3fffffff, lo = 0xffffffff: the next id carries into a.
    const gen = createUuidv7({ now: () => 5, fillRandom: (b) => b.fill(0xff) });
    expect(gen()).toBe('00000000-0005-77ff-bfff-ffffffffffff');
    expect(gen()).toBe('00000000-0005-7800-8000-000000000000');
    expect(gen()).toBe('00000000-0005-7800-8000-000000000001');
  });

  it('stays increasing when the clock steps back', () => {
    let t = 1000;
    const gen = createUuidv7({ now: () => t });
    const first = gen();
    t = 990;
    const second = gen();
    t = 1001;
    const third = gen();
    expect(first < second && second < third).toBe(true);
    expect(msOf(second)).toBe(1000);
    expect(msOf(third)).toBe(1001);
  });
});
