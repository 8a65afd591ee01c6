// The database's own pace for what one of scenario 5's creates writes (issue 31's floor): the
// statements the store runs for it, captured once as executed, then run again on a plain driver
// connection in one transaction, for a project of their own so that every row is a new insert, as
// in the measured creates. No HTTP, no parsing, no digests: the database's work and the driver's.
import { parseLossless, type JsonNode } from '@weft/core';
import { openDatabase } from '@weft/store';
import type * as T from '@weft/types';
import type { CompiledQuery } from 'kysely';
import { captureExecuted } from '../direct-sql.ts';
import { plainWriter } from '../plain-writer.ts';

/** Milliseconds the plain driver takes to write the table `body` (a table/create body) holds, a mean of `runs`. */
export async function tableCreateFloorMs(databaseUrl: string, body: string, runs: number): Promise<number> {
  const captureProject = `bench/table-floor-capture-${Date.now()}`;
  const req = JSON.parse(body) as T.TableCreateReq;
  const source = parseLossless(body) as { table: Record<string, JsonNode> };
  req.table.project_id = captureProject;
  source.table.project_id = captureProject;
  let captured: CompiledQuery[];
  const db = await openDatabase(databaseUrl);
  try {
    captured = await captureExecuted(db, (store) => store.tableCreate(req, { user: 'bench', source: source }));
  } finally {
    await db.close();
  }
  const run = await plainWriter(databaseUrl);
  try {
    let total = 0;
    for (let i = 0; i < runs; i++) {
      const project = `bench/table-floor-${Date.now()}-${i}`;
      const statements = captured.map((q) => ({ sql: q.sql, parameters: q.parameters.map((p) => (p === captureProject ? project : p)) }));
      const started = performance.now();
      await run(statements);
      total += performance.now() - started;
    }
    return total / runs;
  } finally {
    await run.close();
  }
}
