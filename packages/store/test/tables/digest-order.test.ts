// sortByDigest must give exactly the comparator's order, whatever the digests share.
import { describe, expect, it } from 'vitest';
import { digestOfValue, seededRandom } from '@weft/core';
import { sortByDigest } from '../../src/tables/digest-order.ts';

const byComparator = <T extends { digest: string }>(values: T[]) =>
  [...values].sort((a, b) => (a.digest < b.digest ? -1 : a.digest > b.digest ? 1 : 0));

describe('sortByDigest', () => {
  it('orders Weave digests as the string comparison does, each value kept', () => {
    const values = Array.from({ length: 20_000 }, (_, i) => ({ digest: digestOfValue({ i }), i }));
    const sorted = sortByDigest(values);
    expect(sorted).toEqual(byComparator(values));
    expect(new Set(sorted).size).toBe(values.length);
  });

  it('orders any ASCII strings so: shared prefixes, short ones, repeats', () => {
    const random = seededRandom(20261129);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const word = (length: number) => Array.from({ length }, () => pick(['A', 'B', 'a', 'z', '0', 'X', '\u0000'])).join('');
    for (let round = 0; round < 300; round++) {
      const values = Array.from({ length: Math.floor(random() * 200) }, () => ({
        digest: pick([word(4 + Math.floor(random() * 5)), `AAAA${word(3)}`, pick(['AAAA', 'AAAAB', 'AAAA\u0000'])]),
      }));
      expect(sortByDigest(values)).toEqual(byComparator(values));
    }
  });

  it('takes the comparator for a digest too short or not ASCII in its first characters', () => {
    for (const odd of ['AAA', '', 'AAé', '\u{1F600}A']) {
      const values = ['AAAB', odd, 'AAAA', 'AAAAB', 'B'].map((digest) => ({ digest }));
      expect(sortByDigest(values)).toEqual(byComparator(values));
    }
  });
});
