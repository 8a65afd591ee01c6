// Feedback: reactions, notes, annotations and scorer results attached to a call or object ref.
import type { StoreOptions } from '../create-store.ts';
import { storeMethods } from '../store.ts';
import { feedbackCreate } from './feedback-create.ts';

export { callRef, feedbackOfCalls, type CallFeedback } from './call-feedback.ts';

export function feedbackMethods(opts: Pick<StoreOptions, 'db'>) {
  const { db } = opts;
  return storeMethods({
    feedbackCreate: (req, ctx) => feedbackCreate(db, req, ctx.user),
  });
}
