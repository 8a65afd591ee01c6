// `weft backup` of a running SQLite server under write load, then `weft restore` and a server on
// the restored database: everything acknowledged before the backup started is there, every answer
// (calls, objects, tables, feedback, and every read of a project of every kind) is the source's,
// and nothing is half-written. Writers keep sending calls, objects, tables and feedback through
// HTTP while the backup runs in its own process, as an operator runs it.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkSqliteFile, openDatabase } from '@weft/store';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readProject, writeProject } from './move-answers.ts';
import { startTestServer, type TestServer } from './test-server.ts';
import { runWeftProcess } from './weft-process.ts';

const P = 'acme/load';
type Kind = 'call' | 'object' | 'table' | 'feedback';

async function post(server: TestServer, path: string, body: unknown): Promise<{ status: number; text: string }> {
  const res = await fetch(server.url + path, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`api:${server.aliceKey}`).toString('base64')}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

async function ok(server: TestServer, path: string, body: unknown): Promise<string> {
  const { status, text } = await post(server, path, body);
  if (status !== 200) throw new Error(`${path}: ${status} ${text}`);
  return text;
}

/** Writers of each kind, each acknowledged write recorded with its key in order. */
function startWriters(server: TestServer) {
  const acked: Record<Kind, string[]> = { call: [], object: [], table: [], feedback: [] };
  const listeners = new Set<() => void>();
  let stopped = false;
  const ack = (kind: Kind, key: string) => {
    acked[kind].push(key);
    for (const l of listeners) l();
  };
  let n = 0;
  const write: Record<Kind, () => Promise<void>> = {
    call: async () => {
      const id = randomUUID();
      const started_at = new Date().toISOString();
      await ok(server, '/call/start', {
        start: {
          project_id: P,
          id,
          trace_id: randomUUID(),
          op_name: `weave:///${P}/op/step:abc`,
          started_at,
          attributes: {},
          inputs: { n: n++ },
        },
      });
      await ok(server, '/call/end', { end: { project_id: P, id, ended_at: new Date().toISOString(), output: { id }, summary: {} } });
      ack('call', id);
    },
    object: async () => {
      const object_id = `o-${n++}`;
      await ok(server, '/obj/create', { obj: { project_id: P, object_id, val: { n, text: 'x'.repeat(4000) } } });
      ack('object', object_id);
    },
    table: async () => {
      const k = n++;
      const rows = Array.from({ length: 40 }, (_, i) => ({ k, i, text: 'y'.repeat(200) }));
      ack('table', (JSON.parse(await ok(server, '/table/create', { table: { project_id: P, rows } })) as { digest: string }).digest);
    },
    feedback: async () => {
      const id = acked.call[acked.call.length - 1];
      if (id === undefined) return write.call();
      const body = { project_id: P, weave_ref: `weave:///${P}/call/${id}`, feedback_type: 'note', payload: { n: n++ } };
      ack('feedback', (JSON.parse(await ok(server, '/feedback/create', body)) as { id: string }).id);
    },
  };
  const loops = (Object.keys(write) as Kind[]).map(async (kind) => {
    while (!stopped) await write[kind]();
  });
  return {
    acked,
    /** Resolves once `check` holds after some acknowledgement. */
    until: (check: () => boolean) =>
      new Promise<void>((resolve) => {
        const l = () => {
          if (check()) {
            listeners.delete(l);
            resolve();
          }
        };
        listeners.add(l);
        l();
      }),
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

const snapshot = (acked: Record<Kind, string[]>) =>
  Object.fromEntries(Object.entries(acked).map(([k, v]) => [k, [...v]])) as Record<Kind, string[]>;

const lines = (text: string) => text.split('\n').filter((l) => l !== '');

let dir: string;
let source: TestServer;
let restored: TestServer | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'weft-backup-load-'));
  source = await startTestServer('sqlite');
});
afterAll(async () => {
  await restored?.close();
  await source.close();
  rmSync(dir, { recursive: true, force: true });
});

it('backs up a server under write load; the restore answers as the source did', async () => {
  const written = await writeProject(source);
  // Megabytes to copy, so the backup takes many steps while the writers go on.
  for (let i = 0; i < 6; i++)
    await ok(source, '/obj/create', { obj: { project_id: P, object_id: `big-${i}`, val: { i, text: 'z'.repeat(1_000_000) } } });

  const writers = startWriters(source);
  await writers.until(() => Object.values(writers.acked).every((keys) => keys.length >= 5));
  const before = snapshot(writers.acked);
  const file = join(dir, 'backup.sqlite');
  const backup = runWeftProcess(['backup', '--out', file], { DATABASE_URL: source.databaseUrl, WEFT_CWD: dir });
  await backup.stderrLine(/^Backing up /m);
  const atStart = Object.values(writers.acked).reduce((n, keys) => n + keys.length, 0);
  const result = await backup.done;
  const atEnd = Object.values(writers.acked).reduce((n, keys) => n + keys.length, 0);
  await writers.stop();
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toMatch(/^SHA-256: [0-9a-f]{64}$/m);
  expect(result.stdout).toMatch(/integrity_check ok/);
  // The server answered writes while the backup ran.
  expect(atEnd).toBeGreaterThan(atStart);

  const target = join(dir, 'restored.sqlite');
  const restore = await runWeftProcess(['restore', '--from', file], { DATABASE_URL: `sqlite:${target}`, WEFT_CWD: dir }).done;
  expect(restore.code, restore.stderr).toBe(0);
  expect(checkSqliteFile(target).length).toBeGreaterThan(0);
  const db = await openDatabase(`sqlite:${target}`);
  try {
    const { rows } = await db.kysely.executeQuery<unknown>({
      sql: 'pragma foreign_key_check',
      parameters: [],
      query: { kind: 'RawNode' },
    } as never);
    expect(rows).toEqual([]);
  } finally {
    await db.close();
  }
  restored = await startTestServer('sqlite', { DATABASE_URL: `sqlite:${target}` });

  // A project of every kind, written before: every read answers the same bytes.
  expect(await readProject(restored, written)).toEqual(await readProject(source, written));

  // Calls: every acknowledged-before one is there, each as the source answers it.
  const stream = { project_id: P, sort_by: [{ field: 'started_at', direction: 'asc' }] };
  const byId = (text: string) => new Map(lines(text).map((l) => [(JSON.parse(l) as { id: string }).id, l]));
  const [sourceCalls, restoredCalls] = [
    byId(await ok(source, '/calls/stream_query', stream)),
    byId(await ok(restored, '/calls/stream_query', stream)),
  ];
  for (const id of before.call) expect(restoredCalls.has(id), `call ${id}`).toBe(true);
  for (const [id, line] of restoredCalls) {
    // A call whose end was acknowledged before the backup is whole; a later one may be restored
    // as started only (its end came after): then everything its start wrote is the source's.
    const [here, there] = [
      JSON.parse(line) as Record<string, unknown>,
      JSON.parse(sourceCalls.get(id) as string) as Record<string, unknown>,
    ];
    if (before.call.includes(id) || here.ended_at !== undefined) expect(here, `call ${id}`).toEqual(there);
    else {
      // Its summary is derived from what is there (status "running"), so it is left out.
      for (const [field, value] of Object.entries(here))
        if (field !== 'summary') expect(value, `call ${id} ${field}`).toEqual(there[field]);
    }
  }

  // Objects: each one there reads as in the source; the acknowledged-before ones are all there.
  type Obj = { object_id: string; digest: string };
  const objs = async (server: TestServer) => (JSON.parse(await ok(server, '/objs/query', { project_id: P })) as { objs: Obj[] }).objs;
  const restoredObjs = await objs(restored);
  const sourceObjs = new Map((await objs(source)).map((o) => [o.object_id, o]));
  for (const id of before.object)
    expect(
      restoredObjs.some((o) => o.object_id === id),
      `object ${id}`,
    ).toBe(true);
  for (const o of restoredObjs) {
    expect(o).toEqual(sourceObjs.get(o.object_id));
  }

  // Tables: all rows or none; the acknowledged-before ones whole.
  for (const digest of writers.acked.table) {
    const query = { project_id: P, digest };
    const [there, here] = [await post(source, '/table/query', query), await post(restored, '/table/query', query)];
    expect(there.status).toBe(200);
    if (before.table.includes(digest)) expect(here).toEqual(there);
    else if (here.status === 200 && (JSON.parse(here.text) as { rows: unknown[] }).rows.length > 0) expect(here).toEqual(there);
  }

  // Feedback: the query's answer is the source's, less what came after the backup.
  type Fb = { id: string };
  const feedback = async (server: TestServer) =>
    (JSON.parse(await ok(server, '/feedback/query', { project_id: P })) as { result: Fb[] }).result;
  const restoredFb = await feedback(restored);
  const sourceFb = new Map((await feedback(source)).map((f) => [f.id, f]));
  for (const id of before.feedback)
    expect(
      restoredFb.some((f) => f.id === id),
      `feedback ${id}`,
    ).toBe(true);
  for (const f of restoredFb) expect(f).toEqual(sourceFb.get(f.id));
}, 180_000);
