// The issue's "done when", as an operator does it, through the real `weft` entry (src/main.ts in a
// subprocess): `weft demo` into a SQLite file, `weft export`, `weft copy` SQLite → a fresh
// PostgreSQL database, `weft import` of the tarball into a fresh SQLite file; then a server on
// each database answers a broad set of reads with equal answers and digests. The SQLite project
// also gets what the demo lacks: a file of every byte value and an object holding `1.0` (whose
// Weave digest differs from `1`'s), sent as raw JSON as an SDK sends it.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WeftClient } from '@weft/client';
import { COPIED_TABLES } from '@weft/store';
import { createPgTestDatabase, describeIfPostgres } from '@weft/store/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './test-server.ts';

const SERVER_DIR = fileURLToPath(new URL('..', import.meta.url));
const PROJECT = 'acme/demo';
const BYTES = Uint8Array.from({ length: 1000 }, (_, i) => (i * 31) % 256);

function weft(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const { AUTH_FILE: _auth, DATABASE_URL: _url, ...inherited } = process.env;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--conditions=@weft/source', '--import', 'tsx', 'src/main.ts', ...args],
      { cwd: SERVER_DIR, env: { ...inherited, LOG_LEVEL: 'silent', ...env }, encoding: 'utf8' },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Everything a client can read of the project, in a form to compare between servers. */
async function readEverything(server: TestServer, fileDigest: string) {
  const api: WeftClient = server.client('alice');
  const p = PROJECT;
  const projects = (await api.GET('/projects')).projects.filter((x) => x.project_id === p);
  const { objs } = await api.POST('/objs/query', { body: { project_id: p } });
  const reads = [];
  for (const o of objs) reads.push(await api.POST('/obj/read', { body: { project_id: p, object_id: o.object_id, digest: o.digest } }));
  const tableDigests = objs.flatMap((o) => {
    const rows = (o.val as { rows?: unknown }).rows;
    return typeof rows === 'string' ? [rows.split('/').pop()!] : [];
  });
  const tables = [];
  for (const digest of tableDigests) {
    tables.push({
      digest,
      stats: await api.POST('/table/query_stats', { body: { project_id: p, digest } }),
      rows: await api.POST('/table/query', { body: { project_id: p, digest } }),
      // A sorted read: the target builds its own sort-order cache (caches are not moved).
      sorted: await api.POST('/table/query', {
        body: { project_id: p, digest, sort_by: [{ field: 'expected.difficulty', direction: 'desc' }], limit: 10, offset: 5 },
      }),
    });
  }
  const calls = await api.callsStreamQuery({
    project_id: p,
    include_feedback: true,
    include_costs: true,
    sort_by: [{ field: 'started_at', direction: 'asc' }],
  });
  const callReads = [];
  for (const c of calls) callReads.push(await api.POST('/call/read', { body: { project_id: p, id: c.id, include_costs: true } }));
  const queues = await api.annotationQueuesQuery({ project_id: p });
  const queueReads = [];
  for (const q of queues) {
    queueReads.push(await api.GET('/annotation_queues/{queue_id}', { params: { path: { queue_id: q.id }, query: { project_id: p } } }));
  }
  const art = server.client({ scheme: 'bearer', apiKey: server.aliceKey });
  const models = (await art.GET('/v1/preview/models', { params: { query: { project: p } } })).data;
  const modelReads = [];
  for (const m of models) {
    const path = { model_id: m.id };
    modelReads.push({
      model: await art.GET('/v1/preview/models/{model_id}', { params: { path } }),
      checkpoints: await art.GET('/v1/preview/models/{model_id}/checkpoints', { params: { path, query: { limit: 100 } } }),
      train: await art.GET('/v1/preview/models/{model_id}/metrics', { params: { path, query: { split: 'train' } } }),
      val: await art.GET('/v1/preview/models/{model_id}/metrics', { params: { path, query: { split: 'val' } } }),
      trajectories: await art.GET('/v1/preview/models/{model_id}/trajectories', {
        params: { path, query: { split: 'train', step: 7, limit: 100 } },
      }),
    });
  }
  const file = Buffer.from(await api.fileContent({ project_id: p, digest: fileDigest })).toString('base64');
  const costs = await api.POST('/cost/query', {
    body: {
      project_id: p,
      fields: ['id', 'llm_id', 'prompt_token_cost', 'completion_token_cost', 'effective_date', 'created_at', 'created_by'],
    },
  });
  return {
    projects,
    costs,
    callStats: await api.POST('/calls/query_stats', { body: { project_id: p } }),
    objs,
    reads,
    tables,
    calls,
    callReads,
    queues,
    queueReads,
    models,
    modelReads,
    file,
  };
}

describeIfPostgres('moving a deployment from SQLite to PostgreSQL with the weft command', () => {
  let dir: string;
  let pg: { url: string; drop(): Promise<void> };
  const servers: TestServer[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'weft-move-'));
    pg = await createPgTestDatabase();
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    await pg?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'demo → export → copy to PostgreSQL (and import): every server answers the same reads with the same digests',
    { timeout: 180_000 },
    async () => {
      const sqliteUrl = `sqlite:${join(dir, 'weft.sqlite')}`;
      const env = { DATABASE_URL: sqliteUrl, WEFT_CWD: dir, DATA_DIR: join(dir, 'data') };
      const demo = await weft(['demo', '--project', PROJECT], env);
      expect(demo, demo.stderr).toMatchObject({ code: 0 });
      expect(demo.stdout).toContain('Demo project acme/demo: 12 traces');

      const onSqlite = await startTestServer('sqlite', { DATABASE_URL: sqliteUrl });
      servers.push(onSqlite);
      const api = onSqlite.client('alice');
      const { digest: fileDigest } = await api.fileCreate({ project_id: PROJECT, file: BYTES });
      const raw = await fetch(`${onSqlite.url}/obj/create`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Basic ${Buffer.from(`api:${onSqlite.aliceKey}`).toString('base64')}`,
        },
        body: `{"obj":{"project_id":"${PROJECT}","object_id":"thresholds","val":{"min":1.0,"max":2.50,"ids":[1,2.0e0]}}}`,
      });
      expect(raw.status).toBe(200);
      const floatDigest = ((await raw.json()) as { digest: string }).digest;
      // A project price of a demo model, as the Python SDK writes floats: include_costs prices
      // the demo's calls of that model at it, on every server.
      const price = await fetch(`${onSqlite.url}/cost/create`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Basic ${Buffer.from(`api:${onSqlite.aliceKey}`).toString('base64')}`,
        },
        body: `{"project_id":"${PROJECT}","costs":{"meta-llama/Llama-3.3-70B-Instruct":{"prompt_token_cost":1.7e-7,"completion_token_cost":2.3e-7,"effective_date":"2000-01-01T00:00:00Z"}},"wb_user_id":null}`,
      });
      expect(price.status).toBe(200);

      const exported = await weft(['export', '--out', 'backup.tar.gz'], env);
      expect(exported, exported.stderr).toMatchObject({ code: 0 });
      expect(existsSync(join(dir, 'backup.tar.gz'))).toBe(true);
      expect(exported.stdout).toMatch(/Exported every project from sqlite:.*backup\.tar\.gz/);
      // Not a terminal: plain progress lines, one per table at least.
      expect(exported.stderr).toMatch(/^export calls: 48 rows in [\d.]+ s \([\d,]+ rows\/s\)$/m);

      const copied = await weft(['copy', '--to', pg.url, '--batch-size', '25'], env);
      expect(copied, copied.stderr).toMatchObject({ code: 0 });
      expect(copied.stdout).toMatch(/^calls\s+48\s+48$/m);
      expect(copied.stdout).toMatch(
        new RegExp(
          `Verified: counts and checksums of ${COPIED_TABLES.length} tables match; [\\d,]+ content digests recomputed, all match\\.`,
        ),
      );
      // A second run finds everything there: nothing new, still verified.
      const again = await weft(['copy', '--to', pg.url], env);
      expect(again, again.stderr).toMatchObject({ code: 0 });
      expect(again.stdout).toMatch(/, 0 new\.\n/);

      const importedUrl = `sqlite:${join(dir, 'imported.sqlite')}`;
      const imported = await weft(['import', 'backup.tar.gz'], { ...env, DATABASE_URL: importedUrl });
      expect(imported, imported.stderr).toMatchObject({ code: 0 });
      expect(imported.stdout).toContain('Verified: the counts and checksums of 1 project(s) match the export.');

      const onPostgres = await startTestServer('sqlite', { DATABASE_URL: pg.url });
      servers.push(onPostgres);
      const onImported = await startTestServer('sqlite', { DATABASE_URL: importedUrl });
      servers.push(onImported);

      const expected = await readEverything(onSqlite, fileDigest);
      expect(expected.calls).toHaveLength(48);
      expect(expected.objs.map((o) => o.digest)).toContain(floatDigest);
      expect(expected.tables.length).toBe(2);
      expect(expected.modelReads[0]?.checkpoints.data).toHaveLength(20);
      expect(Buffer.from(expected.file, 'base64').equals(Buffer.from(BYTES))).toBe(true);
      expect(expected.costs.results).toMatchObject([{ prompt_token_cost: 1.7e-7, completion_token_cost: 2.3e-7, created_by: 'alice' }]);
      const priced = expected.calls.filter((c) => JSON.stringify(c.summary).includes('"pricing_level":"project"'));
      expect(priced.length).toBeGreaterThan(0);
      expect(await readEverything(onPostgres, fileDigest)).toEqual(expected);
      const onImportedAnswers = await readEverything(onImported, fileDigest);
      expect(onImportedAnswers).toEqual(expected);
      // SQLite to SQLite, the answers' keys come in the same order too (jsonb orders PostgreSQL's
      // own; move-keeps-answers.test.ts compares every direction's answers byte for byte).
      expect(JSON.stringify(onImportedAnswers)).toBe(JSON.stringify(expected));

      // An SDK re-sending the same value to the PostgreSQL server finds it there (same digest): no new version.
      // (That the stored value kept `1.0` is what the copy's recomputed digests checked above.)
      const again2 = await fetch(`${onPostgres.url}/obj/create`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Basic ${Buffer.from(`api:${onPostgres.aliceKey}`).toString('base64')}`,
        },
        body: `{"obj":{"project_id":"${PROJECT}","object_id":"thresholds","val":{"min":1.0,"max":2.50,"ids":[1,2.0e0]}}}`,
      });
      expect(((await again2.json()) as { digest: string }).digest).toBe(floatDigest);
      const listed = await onPostgres
        .client('alice')
        .POST('/objs/query', { body: { project_id: PROJECT, filter: { object_ids: ['thresholds'] } } });
      expect(listed.objs.map((o) => o.version_index)).toEqual([0]);
    },
  );
});
