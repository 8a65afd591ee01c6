// Feedback: reactions, notes, annotations and scorer results attached to a call or object ref.
import type { StoreOptions } from '../create-store.ts';
import type { Store } from '../store.ts';
import { createFeedback } from './feedback-create.ts';

export { callRef, feedbackOfCalls, type CallFeedback } from './call-feedback.ts';

export function feedbackMethods(opts: Pick<StoreOptions, 'db'>): Pick<Store, 'feedbackCreate'> {
  const { db } = opts;
  return {
    feedbackCreate: (req, ctx) => createFeedback(db, req, ctx.user),
  };
}
