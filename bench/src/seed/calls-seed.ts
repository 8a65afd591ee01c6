// Seeds scenario 11's calls: the generator's rows inserted in batches (25–30 s for a million;
// call/upsert_batch, one statement per start and per end, measured ~1,500 calls/s on PostgreSQL:
// 11 minutes), then proven to be what the store writes. For a sample spread over each project,
// the seeded call is read through calls/stream_query and as a raw row, deleted, written again
// through the store API as the SDK sends it (call/upsert_batch: start, then end), and read again
// both ways: both reads must be identical, and the store's own row must equal the generator's
// (storedRow), column by column.
import { isDeepStrictEqual } from 'node:util';
import { loadCatalogue } from '@weft/core';
import { createStore, type Db, type Store } from '@weft/store';
import type * as T from '@weft/types';
import { sql } from 'kysely';
import { progress } from '../progress.ts';
import { insertRows, rowDifferences, SEED_USER, storedRow, storedRows, type CallRow } from './calls-rows.ts';
import { CALL_PROJECTS, generateCalls, type CallProject, type GeneratedCall } from './calls-spec.ts';
import type { SeedSpec } from './spec.ts';

const BATCH = 10_000;

/** Positions of the calls checked at seed time and on every reuse: 40, roots and children alike. */
export function samplePositions(count: number): Set<number> {
  const stride = Math.floor(count / 40);
  return new Set(Array.from({ length: 40 }, (_, i) => i * stride + (i % 9)));
}

export async function seedCalls(db: Db, spec: SeedSpec): Promise<void> {
  await sql.raw(db.dialect === 'sqlite' ? 'pragma synchronous = off' : 'set synchronous_commit = off').execute(db.kysely);
  const store = createStore({ db, catalogue: await loadCatalogue(undefined) });
  for (const project of ['large', 'small'] as const) {
    const sample = await insertProject(db, project, spec.calls[project]);
    const problems = await rewriteThroughStore(db, store, project, sample);
    if (problems.length > 0) throw new Error(`the seeded calls are not what the store writes:\n${problems.slice(0, 10).join('\n')}`);
  }
  if (db.dialect === 'postgres') await sql`analyze calls`.execute(db.kysely);
}

async function insertProject(db: Db, project: CallProject, count: number): Promise<GeneratedCall[]> {
  const bar = progress(`seeding ${CALL_PROJECTS[project]}: ${count.toLocaleString('en-US')} calls`, count);
  const positions = samplePositions(count);
  const sample: GeneratedCall[] = [];
  let batch: CallRow[] = [];
  // PostgreSQL overlaps a few batches' round trips; SQLite runs them one after another anyway.
  const inFlight: Array<Promise<void>> = [];
  const flush = async () => {
    const rows = batch;
    batch = [];
    inFlight.push(db.kysely.transaction().execute((trx) => insertRows({ ...db, kysely: trx }, rows)));
    if (inFlight.length >= (db.dialect === 'postgres' ? 4 : 1)) await inFlight.shift();
  };
  let n = 0;
  for (const call of generateCalls(project, count)) {
    if (positions.has(n)) sample.push(call);
    batch.push(storedRow(call));
    if (batch.length === BATCH) {
      await flush();
      bar.tick(n);
    }
    n++;
  }
  if (batch.length > 0) await flush();
  await Promise.all(inFlight);
  bar.done();
  return sample;
}

async function rewriteThroughStore(db: Db, store: Store, project: CallProject, sample: GeneratedCall[]): Promise<string[]> {
  const projectId = CALL_PROJECTS[project];
  const ids = sample.map((c) => c.start.id as string);
  const before = { answers: await streamAnswers(store, projectId, ids), rows: await storedRows(db, projectId, ids) };
  await db.kysely.deleteFrom('calls').where('project_id', '=', projectId).where('id', 'in', ids).execute();
  const batch: T.CallUpsertBatchReq['batch'] = sample.flatMap((c) => [
    { mode: 'start' as const, req: { start: c.start } },
    { mode: 'end' as const, req: { end: c.end } },
  ]);
  await store.callUpsertBatch({ batch }, { user: SEED_USER });
  const after = { answers: await streamAnswers(store, projectId, ids), rows: await storedRows(db, projectId, ids) };

  const problems: string[] = [];
  for (const call of sample) {
    const id = call.start.id as string;
    const [seeded, written] = [before.answers.get(id), after.answers.get(id)];
    if (!seeded || !isDeepStrictEqual(seeded, written)) {
      problems.push(`call ${id}: calls/stream_query reads ${JSON.stringify(seeded)} seeded, ${JSON.stringify(written)} from the store`);
    }
    const rawSeeded = before.rows.get(id);
    const rawWritten = after.rows.get(id);
    if (!isDeepStrictEqual(rawSeeded, rawWritten)) problems.push(`call ${id}: the seeded row differs from the store's`);
    problems.push(...rowDifferences(db, rawWritten, storedRow(call)));
  }
  return problems;
}

/** calls/stream_query's answer for these calls (everything the SDK can ask for), by id. */
async function streamAnswers(store: Store, projectId: string, ids: string[]): Promise<Map<string, T.CallSchema>> {
  const answers = new Map<string, T.CallSchema>();
  const req: T.CallsStreamQueryReq = {
    project_id: projectId,
    filter: { call_ids: ids },
    include_costs: true,
    include_storage_size: true,
    include_total_storage_size: true,
  };
  for await (const call of await store.callsStreamQuery(req, { user: SEED_USER, mayRead: () => true })) answers.set(call.id, call);
  return answers;
}
