// Calls: the spans of a trace. Start and end arrive separately (in either order, possibly from
// different replicas) and are merged into one row; see call-start.ts.
import type { StoreOptions } from '../create-store.ts';
import type { Store } from '../store.ts';
import { writeCallEnd } from './call-end.ts';
import { readCall } from './call-read.ts';
import { writeCallStart } from './call-start.ts';
import { updateCall } from './call-update.ts';
import { upsertCallBatch } from './call-upsert-batch.ts';
import { streamCalls } from './calls-stream-query.ts';

export function callMethods(opts: StoreOptions): Pick<Store, 'callStart' | 'callEnd' | 'callUpsertBatch' | 'callRead' | 'callUpdate' | 'callsStreamQuery'> {
  const { db, catalogue } = opts;
  return {
    callStart: (req, ctx) => writeCallStart(db.kysely, db, req.start, ctx.user),
    async callEnd(req) {
      await writeCallEnd(db.kysely, db, req.end);
      return {};
    },
    callUpsertBatch: (req, ctx) => upsertCallBatch(db, req, ctx.user),
    callRead: (req) => readCall(db, catalogue, req),
    callUpdate: (req) => updateCall(db, req),
    callsStreamQuery: (req) => streamCalls(db, catalogue, req),
  };
}
