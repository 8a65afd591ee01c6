// Which queue item a reviewer works on: resume at the first item in queue order that nobody has
// finished (completed or skipped) and nobody else has taken (in progress by another annotator);
// after a submit or skip, the next such item after the current one, else the first before it.
import type { AnnotationQueueItemSchema } from '@weft/types';

export type ReviewItem = Pick<AnnotationQueueItemSchema, 'id' | 'annotation_state' | 'annotator_user_id' | 'position_in_queue'>;

export const isDone = (item: ReviewItem): boolean => item.annotation_state === 'completed' || item.annotation_state === 'skipped';

/** In progress by someone other than `me` (the item's latest progress record says who). */
export function takenBy(item: ReviewItem, me: string | undefined): string | undefined {
  if (item.annotation_state !== 'in_progress') return undefined;
  const who = item.annotator_user_id ?? '';
  return who !== '' && who !== me ? who : undefined;
}

/** Open to `me`: not finished, and unstarted or in progress by `me`. */
export const isOpenFor = (item: ReviewItem, me: string | undefined): boolean => !isDone(item) && takenBy(item, me) === undefined;

const positionOf = (item: ReviewItem): number => item.position_in_queue ?? Number.POSITIVE_INFINITY;

/** The item to resume at: the first open one in queue order (items as items/query answered, with positions). */
export function resumeItem<T extends ReviewItem>(items: readonly T[], me: string | undefined): T | undefined {
  return [...items].sort((a, b) => positionOf(a) - positionOf(b)).find((i) => isOpenFor(i, me));
}

/** The open item after `position` (the one just finished), wrapping to the first open one before it. */
export function nextOpenItem<T extends ReviewItem>(
  items: readonly T[],
  me: string | undefined,
  position: number,
  currentId: string,
): T | undefined {
  const open = [...items].sort((a, b) => positionOf(a) - positionOf(b)).filter((i) => i.id !== currentId && isOpenFor(i, me));
  return open.find((i) => positionOf(i) > position) ?? open[0];
}

/** The neighbour of `currentId` in the list (`step` -1 or +1), for plain browsing. */
export function neighbour<T extends ReviewItem>(items: readonly T[], currentId: string, step: 1 | -1): T | undefined {
  const i = items.findIndex((item) => item.id === currentId);
  return i === -1 ? undefined : items[i + step];
}

/** "N of M done": items completed or skipped by someone. */
export function doneCount(items: readonly ReviewItem[]): number {
  return items.filter(isDone).length;
}

/** The value at a display field's dot path (`inputs.messages`, `output.choices.0`), or undefined. */
export function valueAtPath(root: Record<string, unknown>, path: string): unknown {
  let value: unknown = root;
  for (const part of path.split('.')) {
    if (Array.isArray(value) && /^\d+$/.test(part)) value = value[Number(part)];
    else if (typeof value === 'object' && value !== null && Object.hasOwn(value, part)) value = (value as Record<string, unknown>)[part];
    else return undefined;
  }
  return value;
}
