import { describe, expect, it } from 'vitest';
import { formatRelative } from './call-facts.ts';

describe('relative times', () => {
  const now = Date.parse('2026-11-28T12:00:00.000Z');
  const ago = (ms: number) => new Date(now - ms).toISOString();
  it('picks the largest whole unit, past and future', () => {
    const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
    expect(formatRelative(ago(20_000), now)).toBe(rtf.format(-20, 'second'));
    expect(formatRelative(ago(5 * 60_000), now)).toBe(rtf.format(-5, 'minute'));
    expect(formatRelative(ago(3 * 3_600_000), now)).toBe(rtf.format(-3, 'hour'));
    expect(formatRelative(ago(26 * 3_600_000), now)).toBe(rtf.format(-1, 'day'));
    expect(formatRelative(ago(-2 * 3_600_000), now)).toBe(rtf.format(2, 'hour'));
    expect(formatRelative(ago(400 * 86_400_000), now)).toBe(rtf.format(-1, 'year'));
  });
});
