import { describe, expect, it } from 'vitest';
import { doneCount, isOpenFor, neighbour, nextOpenItem, resumeItem, takenBy, valueAtPath, type ReviewItem } from './review-queue.ts';

const item = (n: number, annotation_state: ReviewItem['annotation_state'] = 'unstarted', annotator_user_id = ''): ReviewItem => ({
  id: `i${n}`,
  position_in_queue: n,
  annotation_state,
  annotator_user_id,
});

describe('review order', () => {
  const items = [
    item(1, 'completed', 'alice'),
    item(2, 'skipped', 'alice'),
    item(3, 'in_progress', 'bob'),
    item(4),
    item(5, 'in_progress', 'alice'),
  ];

  it('resumes at the first item nobody finished and nobody else took', () => {
    expect(resumeItem(items, 'alice')?.id).toBe('i4');
    expect(resumeItem(items, 'bob')?.id).toBe('i3'); // bob's own item comes first
    expect(resumeItem([item(2), item(1)], 'x')?.id).toBe('i1'); // by position, not list order
    expect(resumeItem([item(1, 'completed', 'a')], 'a')).toBeUndefined();
  });

  it('says who holds an item, never the reviewer themself', () => {
    expect(takenBy(items[2]!, 'alice')).toBe('bob');
    expect(takenBy(items[2]!, 'bob')).toBeUndefined();
    expect(takenBy(items[0]!, 'bob')).toBeUndefined();
    expect(isOpenFor(items[4]!, 'alice')).toBe(true);
    expect(isOpenFor(items[4]!, 'carol')).toBe(false);
  });

  it('moves on to the next open item after the current one, else wraps to the first open one', () => {
    expect(nextOpenItem(items, 'alice', 4, 'i4')?.id).toBe('i5');
    expect(nextOpenItem(items, 'carol', 4, 'i4')).toBeUndefined();
    expect(nextOpenItem([item(1), item(2, 'completed', 'a'), item(3)], 'a', 3, 'i3')?.id).toBe('i1');
    // The current item is never "next", even while the list still shows it open.
    expect(nextOpenItem([item(1), item(2)], 'a', 1, 'i1')?.id).toBe('i2');
  });

  it('browses neighbours and counts what is done', () => {
    expect(neighbour(items, 'i1', 1)?.id).toBe('i2');
    expect(neighbour(items, 'i1', -1)).toBeUndefined();
    expect(neighbour(items, 'nope', 1)).toBeUndefined();
    expect(doneCount(items)).toBe(2);
  });
});

describe('display fields', () => {
  const call = { inputs: { messages: [{ role: 'user', content: 'hi' }], 'a.b': 1 }, output: { choices: [{ message: 'm' }] } };
  it('reach into objects and lists by dot path', () => {
    expect(valueAtPath(call, 'inputs.messages.0.content')).toBe('hi');
    expect(valueAtPath(call, 'output.choices.0.message')).toBe('m');
    expect(valueAtPath(call, 'output')).toEqual(call.output);
    expect(valueAtPath(call, 'inputs.missing')).toBeUndefined();
    expect(valueAtPath(call, 'inputs.messages.x')).toBeUndefined();
    expect(valueAtPath(call, 'inputs.toString')).toBeUndefined();
  });
});
