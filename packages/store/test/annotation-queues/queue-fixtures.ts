// Shared builders for the annotation-queue tests.
import { loadCatalogue } from '@weft/core';
import { annotationQueueMethods } from '../../src/annotation-queues/index.ts';
import type { Db } from '../../src/db/index.ts';

const catalogue = await loadCatalogue();
export const ctx = { user: 'alice' };
export const REF = 'weave:///acme/bot/scorer/helpfulness:geYJQqnHhVssZOL4AysdAqn1R2jn7svzAGCiYR3kEJU';

export function queuesOf(db: Db) {
  return annotationQueueMethods({ db, catalogue });
}

/** The lines of a JSON Lines answer, collected. */
export async function all<T>(lines: AsyncIterable<T> | Promise<T[]>): Promise<T[]> {
  if (lines instanceof Promise) return lines;
  const out: T[] = [];
  for await (const line of lines) out.push(line);
  return out;
}
