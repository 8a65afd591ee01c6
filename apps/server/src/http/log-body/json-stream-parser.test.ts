// The streaming parser must agree with JSON.parse whatever the chunk boundaries.
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

function parseChunks(chunks: Uint8Array[], raw: (p: readonly PathKey[]) => boolean, maxDepth = 64, maxRawChars?: number): unknown {
  let root: unknown;
  const p = new JsonStreamParser({
    detach: () => false,
    raw,
    onValue: (path, v) => void (path.length === 0 && (root = v)),
    maxDepth,
    maxRawChars,
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
});
