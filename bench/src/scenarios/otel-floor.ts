// The database's own pace for what an OTLP export writes (issue 31's floor): the statements the
// store runs for each export, captured once as executed (direct-sql.ts), then run again on a plain
// driver connection in one transaction per export, each time for a project of its own so every row
// is a new insert as in the measured ingest. No HTTP, no decoding, no mapping: what is left is the
// database's work and the driver's.
import { otlpProjects, readOtlpProtobuf } from '@weft/core';
import { openDatabase } from '@weft/store';
import type { CompiledQuery } from 'kysely';
import { captureExecuted } from '../direct-sql.ts';
import { plainWriter } from '../plain-writer.ts';

/** Rows per second that the plain driver inserts the same statements at. */
export async function otelInsertFloor(databaseUrl: string, bodies: readonly Buffer[], spansPerBody: number): Promise<number> {
  const captureProject = `bench/otel-floor-capture-${Date.now()}`;
  const captured: CompiledQuery[][] = [];
  const db = await openDatabase(databaseUrl);
  try {
    for (const body of bodies) {
      const request = await readOtlpProtobuf(body);
      const projects = otlpProjects(request, captureProject);
      captured.push(await captureExecuted(db, (store) => store.otelExport({ request, projects }, { user: 'bench' })));
    }
  } finally {
    await db.close();
  }
  const run = await plainWriter(databaseUrl);
  try {
    const started = performance.now();
    for (let i = 0; i < captured.length; i++) {
      const project = `bench/otel-floor-${Date.now()}-${i}`;
      // The same statements, for a project of their own: new rows, not updates of the captured ones.
      await run(captured[i]!.map((q) => ({ sql: q.sql, parameters: q.parameters.map((p) => (p === captureProject ? project : p)) })));
    }
    return (captured.length * spansPerBody * 1000) / (performance.now() - started);
  } finally {
    await run.close();
  }
}
