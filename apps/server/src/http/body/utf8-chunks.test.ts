import { describe, expect, it } from 'vitest';
import { Utf8Chunks } from './utf8-chunks.ts';

const decodeIn = (bytes: Buffer, cuts: number[]): string => {
  const d = new Utf8Chunks();
  let text = '';
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    text += d.write(bytes.subarray(from, cut));
    from = cut;
  }
  return text + d.end();
};

describe('Utf8Chunks', () => {
  const text = 'a é € 😀 \u2028 z';
  const bytes = Buffer.from(text);

  it('joins a character cut between chunks, at every byte', () => {
    for (let cut = 0; cut <= bytes.length; cut++) expect(decodeIn(bytes, [cut])).toBe(text);
    // One byte at a time.
    expect(decodeIn(bytes, [...bytes.keys()].slice(1))).toBe(text);
  });

  it('drops a leading byte-order mark only, even cut in two', () => {
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('\ufeff{}')]);
    expect(decodeIn(withBom, [])).toBe('\ufeff{}');
    expect(decodeIn(withBom, [1])).toBe('\ufeff{}');
    expect(decodeIn(withBom, [2, 3])).toBe('\ufeff{}');
    expect(decodeIn(Buffer.from([0xef, 0xbb, 0xbf]), [])).toBe('');
  });

  it('replaces invalid bytes as Buffer#toString does, and a character cut short by the end', () => {
    const bad = Buffer.from([0x61, 0xff, 0x62, 0xe2, 0x82, 0x63, 0xf0, 0x9f, 0x98]);
    for (let cut = 0; cut <= bad.length; cut++) expect(decodeIn(bad, [cut])).toBe(bad.toString('utf8'));
  });
});
