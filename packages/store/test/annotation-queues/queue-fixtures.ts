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
