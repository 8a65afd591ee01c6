import { describe, expect, it } from 'vitest';
import { MAX_MATCHES, rowIndexOf, rowMatches, scanContinues, SCAN_LIMIT, searchNeedle } from './dataset-search.ts';

describe('row search', () => {
  it('finds the text in any value at any depth, ignoring case', () => {
    const row = { question: 'How do I Reset my password?', expected: { difficulty: 7, tags: ['account', 'login'] }, ok: true };
    expect(rowMatches(row, searchNeedle('  reset MY '))).toBe(true);
    expect(rowMatches(row, 'login')).toBe(true);
    expect(rowMatches(row, '7')).toBe(true);
    expect(rowMatches(row, 'true')).toBe(true);
    expect(rowMatches(row, 'difficulty')).toBe(true); // a key
    expect(rowMatches(row, 'refund')).toBe(false);
    expect(rowMatches(null, 'x')).toBe(false);
    expect(rowMatches('plain text', '')).toBe(true);
  });

  it('reads chunks until the table ends, SCAN_LIMIT rows, or MAX_MATCHES matches', () => {
    expect(scanContinues({ chunksRead: 1, rowsRead: 1000, matches: 3 }, 5000)).toBe(true);
    expect(scanContinues({ chunksRead: 5, rowsRead: 5000, matches: 3 }, 5000)).toBe(false);
    expect(scanContinues({ chunksRead: 100, rowsRead: SCAN_LIMIT, matches: 3 }, 10 * SCAN_LIMIT)).toBe(false);
    expect(scanContinues({ chunksRead: 2, rowsRead: 2000, matches: MAX_MATCHES }, 5000)).toBe(false);
  });
});

describe('jump to row', () => {
  it('takes an index of the table', () => {
    expect(rowIndexOf('0', 10)).toBe(0);
    expect(rowIndexOf(' 9 ', 10)).toBe(9);
    expect(rowIndexOf('10', 10)).toBeUndefined();
    expect(rowIndexOf('-1', 10)).toBeUndefined();
    expect(rowIndexOf('2.5', 10)).toBeUndefined();
    expect(rowIndexOf('', 10)).toBeUndefined();
  });
});
