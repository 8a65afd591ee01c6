// Long lists are validated with turns for the event loop between slices, and cut for the
// validator only while it runs.
import type { Request } from 'express';
import { expect, it } from 'vitest';
import { countTurns } from '../../test/event-loop-turns.ts';
import { itemsKeptAsText, listPaths, validateLongLists } from './long-lists.ts';
import { operations } from './spec.ts';

const upsertBatch = operations.find((op) => op.operationId === 'callUpsertBatch')!;
const item = (i: number) => ({
  mode: 'start',
  req: { start: { project_id: 'acme/p', id: `c${i}`, op_name: 'op', started_at: '2025-01-01T00:00:00Z', attributes: {}, inputs: {} } },
});

it('finds the lists of a body from the spec, not the ones with a length bound', () => {
  const keys = (id: string) => listPaths(operations.find((op) => op.operationId === id)!).map((l) => l.keys.join('.'));
  expect(keys('callUpsertBatch')).toEqual(['batch']);
  expect(keys('tableCreate')).toEqual(['table.rows']);
  // object_ids has maxItems: the validator must see it whole.
  expect(keys('objsQuery')).not.toContain('filter.object_ids');
});

it("keeps as text only the items of lists whose schema asks only for objects: a table's rows", () => {
  const kept = (id: string) => itemsKeptAsText(listPaths(operations.find((op) => op.operationId === id)!));
  const rows = kept('tableCreate')!;
  expect(rows(['table', 'rows', 0])).toBe(true);
  expect(rows(['table', 'rows', 99_999])).toBe(true);
  for (const path of [
    ['table', 'rows'],
    ['table', 'rows', 3, 'a'],
    ['table', 'rows', '3'],
    ['rows', 3],
    ['table', 'other', 3],
  ]) {
    expect(rows(path)).toBe(false);
  }
  // A call batch's items have a schema of their own: validated whole, never kept as text.
  expect(kept('callUpsertBatch')).toBeUndefined();
  expect(kept('objCreate')).toBeUndefined();
});

it('validates 50,000 items with turns for the event loop, and puts the list back', async () => {
  const batch = Array.from({ length: 50_000 }, (_, i) => item(i));
  const req = { body: { batch } } as unknown as Request;
  const counter = countTurns();
  const restore = await validateLongLists(req, listPaths(upsertBatch));
  expect(counter.stop()).toBeGreaterThan(2);
  expect((req.body as { batch: unknown[] }).batch).toEqual([batch[0]]);
  restore!();
  expect((req.body as { batch: unknown[] }).batch).toBe(batch);
});

it('leaves short lists to the validator', async () => {
  const req = { body: { batch: [item(0), { mode: 'nope' }] } } as unknown as Request;
  expect(await validateLongLists(req, listPaths(upsertBatch))).toBeUndefined();
  expect((req.body as { batch: unknown[] }).batch).toHaveLength(2);
});
