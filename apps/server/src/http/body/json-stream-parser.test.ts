// The streaming parser must agree with JSON.parse whatever the chunk boundaries.
import { nativeJson, nativeJsonDisabled, seededRandom } from '@weft/core';
import { randomJsonValue } from '@weft/core/random-json';
import { describe, expect, it } from 'vitest';
import { JsonStreamParser, JsonSyntaxError, type PathKey } from './json-stream-parser.ts';

const TRICKY = JSON.stringify({
  a: [1, -2.5e-3, 0, 1e21, true, false, null, '', 'é€😀 "q" \\ \n \u0001 ]}', { '': [], '{': {} }],
  trajectory_groups: [{ trajectories: [{ x: '[{"', n: [[[]]] }, {}], metrics: { m: 1 } }, {}],
  ['__proto__']: { p: 1 },
  split: 'val',
  // A raw container whose escape a chunk may cut, then an empty key: no escape state may leak.
  b: [{ s: 'x\\"', t: ['\\'] }],
  '': 'after',
});

function parseChunks(
  chunks: Uint8Array[],
  raw: (p: readonly PathKey[]) => boolean,
  maxDepth = 64,
  maxRawChars?: number,
  scanContainer?: (text: string, state: Int32Array, maxDepth: number) => number,
): unknown {
  let root: unknown;
  const p = new JsonStreamParser({
    detach: () => false,
    raw,
    onValue: (path, v) => void (path.length === 0 && (root = v)),
    maxDepth,
    maxRawChars,
    scanContainer,
  });
  const decoder = new TextDecoder();
  for (const c of chunks) p.write(decoder.decode(c, { stream: true }));
  p.write(decoder.decode());
  p.end();
  return root;
}

describe('JsonStreamParser', () => {
  const bytes = new TextEncoder().encode(TRICKY);
  for (const [name, raw, maxRawChars] of [
    ['own parsing', () => false, undefined],
    ['raw below depth 1', (p: readonly PathKey[]) => p.length >= 2, undefined],
    ['raw everywhere, read again past 8 characters', () => true, 8],
  ] as const) {
    it(`agrees with JSON.parse at every split point (${name})`, () => {
      const expected = JSON.parse(TRICKY);
      for (let i = 0; i <= bytes.length; i++) {
        const got = parseChunks([bytes.subarray(0, i), bytes.subarray(i)], raw, 64, maxRawChars);
        expect(JSON.stringify(got)).toBe(JSON.stringify(expected));
        expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
      }
      // One byte at a time, too.
      expect(
        JSON.stringify(
          parseChunks(
            [...bytes].map((b) => Uint8Array.of(b)),
            raw,
            64,
            maxRawChars,
          ),
        ),
      ).toBe(JSON.stringify(expected));
    });
  }

  it('detaches values and hands them over in document order', () => {
    const seen: string[] = [];
    const p = new JsonStreamParser({
      detach: (path) => path.length === 2,
      raw: (path) => path.length >= 2,
      onValue: (path, v) => seen.push(`${path.join('.')}=${JSON.stringify(v)}`),
      maxDepth: 8,
    });
    p.write('{"g":[{"a":1},[2]],"s":"x"}');
    p.end();
    expect(seen).toEqual(['g.0={"a":1}', 'g.1=[2]', '=' + JSON.stringify({ g: [], s: 'x' })]);
  });

  const bad = [
    '{',
    '{"a":}',
    '{"a" 1}',
    '[1,]',
    '{"a":1,}',
    '[01]',
    '[tru]',
    '{"a":"\\x"}',
    '["\u0001"]',
    '[1] 2',
    '',
    '[1}',
    '{"a":[1}',
    '-',
    '{"a":{"b":]}}',
  ];
  for (const text of bad) {
    for (const raw of [() => false, () => true]) {
      it(`rejects ${JSON.stringify(text)} (raw: ${raw()})`, () => {
        expect(() => parseChunks([new TextEncoder().encode(text)], raw)).toThrow(JsonSyntaxError);
        expect((): unknown => JSON.parse(text)).toThrow();
      });
    }
  }

  it('limits nesting depth, in both modes', () => {
    const deep = '['.repeat(100) + ']'.repeat(100);
    expect(() => parseChunks([new TextEncoder().encode(deep)], () => false, 50)).toThrow(/Nesting/);
    expect(() => parseChunks([new TextEncoder().encode(deep)], () => true, 50)).toThrow(/Nesting/);
    expect(parseChunks([new TextEncoder().encode(deep)], () => true, 100)).toBeTruthy();
  });

  // Containers past 4096 characters are scanned natively, 256 kB at a time (nothing to compare
  // when WEFT_JSON_NATIVE=0 turned the addon off).
  describe.skipIf(nativeJsonDisabled)('with the native scanContainer', () => {
    const scan = nativeJson?.scanContainer;
    const filler = (n: number) => Array.from({ length: n }, (_, i) => ({ s: `x"]}{[\\${i}`, n: [i, [i]], e: '\\' }));
    const big = JSON.stringify({ a: [JSON.parse(TRICKY), filler(12000)], b: { c: filler(20) }, d: '\\"' });
    const bigBytes = new TextEncoder().encode(big);

    it('agrees with JSON.parse wherever chunks are cut, across its windows', () => {
      const expected = JSON.stringify(JSON.parse(big));
      expect(big.length).toBeGreaterThan(2 * 256 * 1024);
      const cuts = [0, 1, 4095, 4096, 4097, 262_143, 262_144, 262_145, bigBytes.length - 1];
      for (let i = 0; i < 40; i++) cuts.push(Math.floor((bigBytes.length * (i + 0.37)) / 40));
      for (const cut of cuts) {
        const chunks = [bigBytes.subarray(0, cut), bigBytes.subarray(cut)];
        expect(JSON.stringify(parseChunks(chunks, (p) => p.length >= 1, 64, undefined, scan)), `cut at ${cut}`).toBe(expected);
      }
      // Many small chunks, each ending inside a string or an escape somewhere.
      const small: Uint8Array[] = [];
      for (let at = 0; at < bigBytes.length; at += 997) small.push(bigBytes.subarray(at, at + 997));
      expect(JSON.stringify(parseChunks(small, () => true, 64, undefined, scan))).toBe(expected);
    });

    // A differential fuzz: large random containers, whole or damaged, cut into random chunks, read
    // with the native scan and with the parser's own loop: the same value, or the same error.
    // WEFT_FUZZ_SEED=<n> replays a run.
    it('reads random large containers, whole and damaged, as its own loop does', () => {
      const seed = Number(process.env.WEFT_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
      console.info(`scanContainer fuzz: WEFT_FUZZ_SEED=${seed}`);
      const random = seededRandom(seed);
      const outcome = (f: () => unknown): string => {
        try {
          return JSON.stringify(f());
        } catch (err) {
          return `error: ${(err as Error).message}`;
        }
      };
      for (let i = 0; i < 150; i++) {
        const items = Array.from({ length: 60 + Math.floor(random() * 200) }, () => randomJsonValue(random));
        let text = JSON.stringify({ a: items, b: { c: items.slice(0, 5) } });
        if (random() < 0.4) {
          const at = Math.floor(random() * text.length);
          text = text.slice(0, at) + '{}[]",\\:x'[Math.floor(random() * 10)] + text.slice(at + (random() < 0.5 ? 1 : 0));
        }
        const bytes = new TextEncoder().encode(text);
        const chunks: Uint8Array[] = [];
        for (let at = 0; at < bytes.length;) {
          const size = 1 + Math.floor(random() * 9000);
          chunks.push(bytes.subarray(at, at + size));
          at += size;
        }
        const raw = (p: readonly PathKey[]) => p.length >= 1;
        expect(
          outcome(() => parseChunks(chunks, raw, 64, 4096, scan)),
          `seed ${seed}, text ${i}`,
        ).toBe(outcome(() => parseChunks(chunks, raw, 64, 4096)));
      }
    });

    it('refuses nesting past the limit with the same error as its own loop', () => {
      const deep = JSON.stringify({ pad: ['y'.repeat(5000), '['.repeat(70)] }).replace(
        `"${'['.repeat(70)}"`,
        '['.repeat(70) + ']'.repeat(70),
      );
      const bytes = [new TextEncoder().encode(deep)];
      const own = () => parseChunks(bytes, () => true, 64);
      const native = () => parseChunks(bytes, () => true, 64, undefined, scan);
      expect(own).toThrow(/Nesting deeper than 64/);
      expect(native).toThrow(/Nesting deeper than 64/);
      const message = (f: () => unknown) => {
        try {
          f();
        } catch (err) {
          return (err as Error).message;
        }
      };
      expect(message(native)).toBe(message(own));
    });
  });
});
