// The rollup of calls/usage and trace/usage on rows alone (no database): a chain as deep as the
// limit (no recursion), parents that point in a circle or at the call itself (stored client
// data: never merged, never a hang), and model ids that are object keys of JavaScript.
import { expect, it } from 'vitest';
import { rollUp, usageObject, type UsageRow } from '../../src/calls/usage-rollup.ts';

const row = (id: string, parent: string | null, usage?: Record<string, unknown>): UsageRow => ({
  id,
  parent_id: parent,
  started_at: '2025-06-03T10:00:00.000Z',
  ended_at: '2025-06-03T10:00:01.000Z',
  summary: usage ? { usage } : {},
});
const one = { m: { prompt_tokens: 1, completion_tokens: 2, requests: 1 } };

it('rolls a chain of 10,000 calls up to its root', async () => {
  const rows = Array.from({ length: 10_000 }, (_, i) => row(`c${i}`, i === 0 ? null : `c${i - 1}`, one));
  const usage = await rollUp(rows.reverse(), undefined);
  expect(usage.get('c0')?.get('m')).toMatchObject({
    requests: 10_000,
    prompt_tokens: 10_000,
    completion_tokens: 20_000,
    total_tokens: 30_000,
  });
  expect(usage.get('c9999')?.get('m')).toMatchObject({ requests: 1, prompt_tokens: 1 });
});

it('never merges calls whose parents form a circle, or name the call itself, into each other', async () => {
  const usage = await rollUp([row('a', 'b', one), row('b', 'a', one), row('s', 's', one), row('leaf', 'a', one)], undefined);
  // a has its leaf's usage beside its own; neither a nor b ever becomes a leaf of the other.
  expect(usage.get('a')?.get('m')?.requests).toBe(2);
  for (const id of ['b', 's', 'leaf']) expect(usage.get(id)?.get('m')?.requests).toBe(1);
});

it('keeps model ids that are names of object properties as plain keys', async () => {
  // As a stored summary is read: JSON.parse makes "__proto__" an own key.
  const models = JSON.parse('{"__proto__": {"prompt_tokens": 3}, "constructor": {"prompt_tokens": 4}}') as Record<string, unknown>;
  const usage = await rollUp([row('r', null, models)], undefined);
  const wire = usageObject(usage.get('r'));
  expect(Object.keys(wire)).toEqual(['__proto__', 'constructor']);
  expect(JSON.parse(JSON.stringify(wire))).toMatchObject({ ['__proto__']: { prompt_tokens: 3 }, constructor: { prompt_tokens: 4 } });
});
