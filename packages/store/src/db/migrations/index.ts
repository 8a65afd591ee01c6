// The migration list, compiled in (nothing is read from disk at run time). Kysely applies them in
// name order: add `0002-…` for the next change, and never edit or rename a released one.
import type { Migration } from 'kysely';
import type { Dialect } from '../db.ts';
import { initialSchema } from './0001-initial.ts';
import { tableSortOrders } from './0002-table-sort-orders.ts';
import { callTimeOrder } from './0003-call-time-order.ts';
import { modelCheckpoints } from './0004-model-checkpoints.ts';
import { logSums } from './0005-log-sums.ts';
import { logTables } from './0006-log-tables.ts';
import { apiKeys } from './0007-api-keys.ts';
import { retention } from './0008-retention.ts';
import { callsOpTimeIndex } from './0009-calls-op-time-index.ts';
import { objectTagsAliases } from './0010-object-tags-aliases.ts';
import { llmTokenPrices } from './0011-llm-token-prices.ts';
import { rowValuesAsJson } from './0012-row-values-as-json.ts';
import { callsThreadTurnsIndex } from './0013-calls-thread-turns-index.ts';
import { apiKeyScope } from './0014-api-key-scope.ts';
import { annotationQueueItems } from './0015-annotation-queue-items.ts';
import { apiKeyEntityScopes } from './0016-api-key-entity-scopes.ts';
import { feedbackCreatedIndex } from './0017-feedback-created-index.ts';
import { feedbackCallTypeIndex } from './0018-feedback-call-type-index.ts';
import { queueItemsLiveIndex } from './0019-queue-items-live-index.ts';
import { judgements } from './0020-judgements.ts';
import { objectValuesAsJson } from './0021-object-values-as-json.ts';

export function migrationsFor(dialect: Dialect): Record<string, Migration> {
  return {
    '0001-initial': initialSchema(dialect),
    '0002-table-sort-orders': tableSortOrders(dialect),
    '0003-call-time-order': callTimeOrder(dialect),
    '0004-model-checkpoints': modelCheckpoints(dialect),
    '0005-log-sums': logSums(dialect),
    '0006-log-tables': logTables(dialect),
    '0007-api-keys': apiKeys(dialect),
    '0008-retention': retention(dialect),
    '0009-calls-op-time-index': callsOpTimeIndex(),
    '0010-object-tags-aliases': objectTagsAliases(dialect),
    '0011-llm-token-prices': llmTokenPrices(dialect),
    '0012-row-values-as-json': rowValuesAsJson(dialect),
    '0013-calls-thread-turns-index': callsThreadTurnsIndex(),
    '0014-api-key-scope': apiKeyScope(dialect),
    '0015-annotation-queue-items': annotationQueueItems(dialect),
    '0016-api-key-entity-scopes': apiKeyEntityScopes(dialect),
    '0017-feedback-created-index': feedbackCreatedIndex(),
    '0018-feedback-call-type-index': feedbackCallTypeIndex(),
    '0019-queue-items-live-index': queueItemsLiveIndex(),
    '0020-judgements': judgements(dialect),
    '0021-object-values-as-json': objectValuesAsJson(dialect),
  };
}
