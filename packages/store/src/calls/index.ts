// Calls: the spans of a trace. Start and end arrive separately (in either order, possibly from
// different replicas) and are merged into one row; see call-start.ts.
import type { StoreOptions } from '../store-options.ts';
import { storeMethods } from '../store.ts';
import { callEnd } from './call-end.ts';
import { callRead } from './call-read.ts';
import { callStart } from './call-start.ts';
import { callUpdate } from './call-update.ts';
import { callUpsertBatch } from './call-upsert-batch.ts';
import { callsDelete } from './calls-delete.ts';
import { callsQuery } from './calls-query.ts';
import { callsQueryStats } from './calls-query-stats.ts';
import { callsStats } from './calls-stats.ts';
import { callsStreamQuery } from './calls-stream-query.ts';
import { callsUsage, traceUsage } from './calls-usage.ts';
import { otelExport } from './otel-export.ts';

export function callMethods(opts: StoreOptions) {
  const { db, catalogue } = opts;
  return storeMethods({
    callStart: (req, ctx) => callStart(db.kysely, db, req.start, ctx.user),
    async callEnd(req) {
      await callEnd(db.kysely, db, req.end);
      return {};
    },
    callUpsertBatch: (req, ctx) => callUpsertBatch(db, req, ctx.user),
    callRead: (req) => callRead(db, catalogue, req),
    callUpdate: (req) => callUpdate(db, req),
    callsStreamQuery: (req, ctx) => callsStreamQuery(db, catalogue, req, ctx),
    callsQueryStats: (req) => callsQueryStats(db, req),
    callsStats: (req) => callsStats(db, catalogue, req),
    callsUsage: (req) => callsUsage(db, catalogue, req),
    traceUsage: (req) => traceUsage(db, catalogue, req),
    callsDelete: (req) => callsDelete(db, req),
    callsQuery: (req, ctx) => callsQuery(db, catalogue, req, ctx),
    otelExport: (req, ctx) => otelExport(db, req, ctx.user),
  });
}
