import { describe, expect, it } from 'vitest';
import { jsonDiff } from './json-diff.ts';

describe('jsonDiff', () => {
  it('lists added, removed and changed leaves by path, in key order', () => {
    const before = { model: 'gpt-4o', params: { temperature: 0.2, top_p: 1 }, tags: ['a', 'b'], 'odd key': 1 };
    const after = { model: 'gpt-4o-mini', params: { temperature: 0.2, seed: 7 }, tags: ['a'], 'odd key': 1 };
    expect(jsonDiff(before, after).entries).toEqual([
      { path: 'model', kind: 'changed', before: 'gpt-4o', after: 'gpt-4o-mini' },
      { path: 'params.top_p', kind: 'removed', before: 1 },
      { path: 'params.seed', kind: 'added', after: 7 },
      { path: 'tags[1]', kind: 'removed', before: 'b' },
    ]);
  });

  it('equal values have no entry; a container that becomes a scalar is one change', () => {
    expect(jsonDiff({ a: [1, { b: null }] }, { a: [1, { b: null }] }).entries).toEqual([]);
    expect(jsonDiff({ a: { b: 1 } }, { a: 'x' }).entries).toEqual([{ path: 'a', kind: 'changed', before: { b: 1 }, after: 'x' }]);
    expect(jsonDiff([1], { 0: 1 }).entries).toEqual([{ path: '(whole value)', kind: 'changed', before: [1], after: { 0: 1 } }]);
  });

  it('stops listing at the cap and counts the rest, on values of any depth', () => {
    const a = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, i]));
    const b = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, -i - 1]));
    const { entries, more } = jsonDiff(a, b, 100);
    expect(entries).toHaveLength(100);
    expect(more).toBe(900);
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(jsonDiff(deep, [deep]).entries).toHaveLength(1);
  });
});
