// The native jsonb order (@weft/json-native, used for SQLite's copy of each trajectory) against
// the store's own toStoredJson, which it must match character for character.
import { nativeJson, seededRandom } from '@weft/core';
import { randomJsonValue, TRICKY_STRINGS } from '@weft/core/random-json';
import { describe, expect, it } from 'vitest';
import { toStoredJson } from '../../src/objects/value-encoding.ts';

const jsonbOrderText = (value: unknown) => nativeJson!.jsonbOrderText(JSON.stringify(value));

describe('jsonbOrderText', () => {
  it('is built by pnpm install', () => {
    expect(nativeJson).toBeDefined();
  });

  it('orders keys as toStoredJson does: UTF-8 length, then bytes; values as JSON.stringify wrote them', () => {
    const keys: Record<string, unknown> = {};
    // 'é' and 'aa' are both 2 UTF-8 bytes; '€' and '😀' 3 and 4; integer-like keys come first in JS.
    for (const k of [...TRICKY_STRINGS, 'aa', 'b', 'ab', '10', '9', '__proto__', 'A', '\ue000', 'zzz']) keys[k] = [k, { [k]: 1, a: 2 }];
    expect(jsonbOrderText(keys)).toBe(toStoredJson(keys));
    const numbers = [0, -0, 1e21, 1e-7, 0.1, 2 ** 60, -1.5e300, 5e-324];
    expect(jsonbOrderText({ numbers, b: true, a: null })).toBe(toStoredJson({ numbers, b: true, a: null }));
  });

  it('agrees with toStoredJson on random values', () => {
    const random = seededRandom(11);
    for (let i = 0; i < 2000; i++) {
      const value = randomJsonValue(random);
      expect(jsonbOrderText(value), JSON.stringify(value)).toBe(toStoredJson(value));
    }
  });

  it('leaves to toStoredJson what only it handles', () => {
    // A lone surrogate (refused by the store anyway), a repeated key, nesting past 1000.
    for (const text of ['{"\\ud800":1}', '{"a":1,"a":2}', '['.repeat(1001) + ']'.repeat(1001), '{"a":1', '{"a" :1}', '[1, 2]']) {
      expect(nativeJson!.jsonbOrderText(text), text).toBeUndefined();
    }
  });
});
