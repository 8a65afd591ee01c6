// Seeds a database through the store API, in process: the two tables (one create each), the
// object versions of the large and the small project (version-major, so each object's latest
// version is among the newest), and one finished call. Durability is relaxed for the seeding
// connection only (the servers measured later open their own connections with the defaults).
import { loadCatalogue } from '@weft/core';
import { createStore, type Db, type Store } from '@weft/store';
import { sql } from 'kysely';
import { phase, progress } from '../progress.ts';
import { CALL_ID, objectId, objectValue, PROJECTS, TABLE_SALT, tableRows, type SeedSpec } from './spec.ts';

// Plain JS values: no number lexemes to keep, so no lossless source.
const ctx = { user: 'bench', source: undefined };

export async function seed(db: Db, spec: SeedSpec): Promise<void> {
  await sql.raw(db.dialect === 'sqlite' ? 'pragma synchronous = off' : 'set synchronous_commit = off').execute(db.kysely);
  const store = createStore({ db, catalogue: await loadCatalogue(undefined) });
  await seedTable(store, 'big', spec.bigRows);
  await seedTable(store, 'small', spec.smallRows);
  await seedObjects(store, PROJECTS.objsLarge, spec.largeProject);
  await seedObjects(store, PROJECTS.objsSmall, spec.smallProject);
  await seedCall(store);
}

async function seedTable(store: Store, which: 'big' | 'small', count: number): Promise<void> {
  const label = `seeding the ${count.toLocaleString('en-US')}-row table`;
  const bar = progress(`${label}: generating`, count);
  const rows = tableRows(count, TABLE_SALT[which], (done) => bar.tick(done));
  bar.done();
  // One table is one create (tables are immutable); the store chunks its inserts.
  await phase(`${label}: storing`, () => store.tableCreate({ table: { project_id: PROJECTS.tables, rows: rows as never[] } }, ctx));
}

async function seedObjects(store: Store, projectId: string, size: { objects: number; versions: number }): Promise<void> {
  const total = size.objects * size.versions;
  const bar = progress(
    `seeding ${projectId}: ${total.toLocaleString('en-US')} versions of ${size.objects.toLocaleString('en-US')} objects`,
    total,
  );
  // A few writers at once (distinct objects): PostgreSQL overlaps their round trips; SQLite
  // serialises them on its one connection anyway.
  const WRITERS = 8;
  let next = 0;
  const writer = async () => {
    for (;;) {
      const n = next++;
      if (n >= total) return;
      const version = Math.floor(n / size.objects);
      const o = n % size.objects;
      await store.objCreate({ obj: { project_id: projectId, object_id: objectId(o), val: objectValue(o, version) } }, ctx);
      bar.tick(n);
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
  bar.done();
}

async function seedCall(store: Store): Promise<void> {
  await store.callStart(
    {
      start: {
        project_id: PROJECTS.calls,
        id: CALL_ID,
        trace_id: CALL_ID,
        op_name: 'weave:///bench/calls/op/answer_question:v3',
        display_name: 'answer_question',
        started_at: '2025-06-03T09:41:27.512Z',
        attributes: { weave: { client_version: '0.51.0', source: 'python-sdk' }, env: 'bench' },
        inputs: {
          question: 'What is the capital of France?',
          context: 'Paris is the capital and largest city of France.',
          temperature: 0.2,
        },
      },
    },
    ctx,
  );
  await store.callEnd(
    {
      end: {
        project_id: PROJECTS.calls,
        id: CALL_ID,
        ended_at: '2025-06-03T09:41:28.734Z',
        output: { answer: 'Paris', confidence: 0.97 },
        summary: { usage: { 'gpt-4o-mini': { requests: 1, prompt_tokens: 42, completion_tokens: 3, total_tokens: 45 } } },
      },
    },
    ctx,
  );
}
