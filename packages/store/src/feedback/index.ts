// Feedback: reactions, notes, annotations and scorer results attached to a call or object ref.
import type { StoreOptions } from '../store-options.ts';
import { storeMethods } from '../store.ts';
import { feedbackAggregate } from './feedback-aggregate.ts';
import { feedbackBatchCreate } from './feedback-batch-create.ts';
import { feedbackCreate } from './feedback-create.ts';
import { feedbackPayloadSchema } from './feedback-payload-schema.ts';
import { feedbackPurge, feedbackReplace } from './feedback-purge.ts';
import { feedbackQuery } from './feedback-query.ts';
import { feedbackStats } from './feedback-stats.ts';

export { callRef, feedbackOfCalls, type CallFeedback } from './call-feedback.ts';

export function feedbackMethods(opts: Pick<StoreOptions, 'db'>) {
  const { db } = opts;
  return storeMethods({
    feedbackCreate: (req, ctx) => feedbackCreate(db, req, ctx.user),
    feedbackBatchCreate: (req, ctx) => feedbackBatchCreate(db, req, ctx.user),
    feedbackQuery: (req) => feedbackQuery(db, req),
    feedbackPurge: (req) => feedbackPurge(db, req),
    feedbackReplace: (req, ctx) => feedbackReplace(db, req, ctx.user),
    feedbackStats: (req) => feedbackStats(db, req),
    feedbackPayloadSchema: (req) => feedbackPayloadSchema(db, req),
    feedbackAggregate: (req) => feedbackAggregate(db, req),
  });
}
