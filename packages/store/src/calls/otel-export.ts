// POST /otel/v1/traces: each span is one whole call (start and end together), written with
// several rows per statement in ONE transaction, so an export is stored entirely or not at all.
// Spans are decoded and mapped a statement's worth at a time inside it, on the mapping thread while
// earlier chunks are inserted when the export is large (map-thread.ts in @weft/core): a 32 MB
// export never holds all of its calls in memory (bench: otel-ingest).
// A re-sent span (exporters retry) replaces its call instead of adding one; a parent sent later
// links by its id, the parent span id, whatever the order.
import { otlpCallChunksOffMain, SpanTally, TurnClock, type OtelCall } from '@weft/core';
import type { OtelExportInput } from '../store.ts';
import type * as T from '@weft/types';
import type { Db } from '../db/index.ts';
import { SPAN_COLUMNS, upsertCallRows, type CallRow } from './call-rows.ts';

/** Rows per statement: 19 values and the expiry's 2 or 3 parameters each, well under both databases' limits. */
const ROWS_PER_STATEMENT = 100;

export async function otelExport(db: Db, req: OtelExportInput, user: string): Promise<T.OtlpExportRes> {
  const clock = new TurnClock();
  const tally = new SpanTally();
  const chunks = otlpCallChunksOffMain(req.request, req.projects, tally, ROWS_PER_STATEMENT, clock);
  try {
    // The transaction opens once the first chunk is mapped: an export queued behind others on the
    // mapping thread holds no connection (nor SQLite's write lock) while it waits.
    const first = await chunks.next();
    await db.kysely.transaction().execute(async (trx) => {
      for (let next = first; !next.done; next = await chunks.next()) {
        // A span sent twice in one statement: the last copy wins (a statement may not touch a row
        // twice); across statements the later upsert wins by itself.
        const unique = new Map<string, OtelCall>();
        for (const call of next.value) {
          const key = `${call.project_id}\n${call.id}`;
          unique.delete(key);
          unique.set(key, call);
        }
        await upsertCallRows(
          db,
          trx,
          [...unique.values()].map((call) => row(call, user)),
          SPAN_COLUMNS,
        );
        // better-sqlite3 is synchronous: a turn for the event loop between statements when due.
        if (clock.due) await clock.pass();
      }
    });
  } finally {
    // A failed statement stops the mapping of the rest (a no-op once every chunk was taken).
    await chunks.return(undefined);
  }
  return tally.rejected === 0 ? {} : { partialSuccess: { rejectedSpans: String(tally.rejected), errorMessage: tally.message } };
}

function row(call: OtelCall, user: string): CallRow {
  return {
    project_id: call.project_id,
    id: call.id,
    trace_id: call.trace_id,
    parent_id: call.parent_id,
    op_name: call.op_name,
    display_name: call.display_name,
    thread_id: call.thread_id,
    turn_id: call.turn_id,
    started_at: call.started_at,
    ended_at: call.ended_at,
    // A re-sent span is a new start: it takes the retention in force now, as call/start does.
    expire_from: call.started_at,
    attributes: call.attributes,
    inputs: call.inputs,
    output: call.output,
    exception: call.exception,
    summary: call.summary,
    // The authenticated user, as for every call.
    svc_user_id: user,
  };
}
