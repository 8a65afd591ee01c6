import { describe, expect, it } from 'vitest';
import type { CallSchema } from '@weft/types';
import { formatRelative, tokensOf } from './call-facts.ts';

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

describe('tokensOf', () => {
  const call = (usage: Record<string, unknown>) => ({ summary: { usage } }) as unknown as CallSchema;
  it('counts as the server sorts summary.weave.total_tokens: total, else prompt + completion, else the aliases', () => {
    expect(
      tokensOf(call({ a: { total_tokens: 50, prompt_tokens: 1, completion_tokens: 1 }, b: { input_tokens: 3, output_tokens: 2 } })),
    ).toBe(55);
    // A reported total of 0 is the total; JSON null is absent.
    expect(tokensOf(call({ a: { total_tokens: 0, prompt_tokens: 9 } }))).toBe(0);
    expect(tokensOf(call({ a: { total_tokens: null, prompt_tokens: 9, completion_tokens: 1 } }))).toBe(10);
    // The OpenAI name wins when present, even when it is no count; fractions are truncated.
    expect(tokensOf(call({ a: { prompt_tokens: '900', input_tokens: 900, completion_tokens: -5, output_tokens: 5 } }))).toBe(0);
    expect(tokensOf(call({ a: { prompt_tokens: 7, completion_tokens: 7.9 }, b: 'x' }))).toBe(14);
    expect(tokensOf({ summary: {} } as unknown as CallSchema)).toBe(0);
  });
});
