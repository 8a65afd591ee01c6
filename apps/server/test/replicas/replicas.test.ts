// Two server processes on one PostgreSQL database, as replicas behind a load balancer: no lost
// or duplicated versions, no error to any client, whatever the interleaving.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient, type WeftClient } from '@weft/client';
import { describeIfPostgres, createPgTestDatabase } from '@weft/store/testing';
import { formatAuthFile, generateApiKey, hashApiKey } from '../../src/auth/index.ts';
import { runWeft } from '../../src/cli/program.ts';
import { loadConfig } from '../../src/config.ts';
import { openKeyDatabase } from '../../src/server.ts';
import { spawnServer, type ServerProcess } from './spawn-server.ts';

describeIfPostgres('two replicas on one PostgreSQL database', () => {
  const key = generateApiKey();
  let db: { url: string; drop(): Promise<void> };
  let replicas: ServerProcess[] = [];
  let clients: WeftClient[] = [];
  let dir = '';
  const project_id = 'acme/replicas';

  beforeAll(async () => {
    db = await createPgTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'weft-replicas-'));
    const authFile = join(dir, 'auth.yaml');
    writeFileSync(authFile, formatAuthFile({ users: [{ username: 'alice', entities: ['acme'], apiKeyHashes: [hashApiKey(key)] }] }));
    // Both start at once: migrations must be safe when replicas race.
    replicas = await Promise.all([0, 1].map(() => spawnServer({ DATABASE_URL: db.url, AUTH_FILE: authFile, DATA_DIR: dir })));
    clients = replicas.map((r) => createClient({ baseUrl: r.url, auth: { scheme: 'basic', apiKey: key } }));
  }, 90_000);

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await db?.drop();
  });

  const spread = <T>(n: number, f: (client: WeftClient, i: number) => Promise<T>) =>
    Promise.all(Array.from({ length: n }, (_, i) => f(clients[i % 2]!, i)));

  it('200 concurrent versions of one object get version_index 0..199 and one latest', async () => {
    const digests = await spread(200, (c, i) =>
      c.POST('/obj/create', { body: { obj: { project_id, object_id: 'contended', val: { attempt: i } } } }).then((r) => r.digest),
    );
    expect(new Set(digests).size).toBe(200);
    const { objs } = await clients[0]!.POST('/objs/query', {
      body: { project_id, filter: { object_ids: ['contended'] }, metadata_only: true },
    });
    expect(objs.map((o) => o.version_index).sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    expect(objs.filter((o) => o.is_latest === 1)).toHaveLength(1);
  });

  it('the same value created concurrently from both replicas is one version', async () => {
    const digests = await spread(40, (c) =>
      c.POST('/obj/create', { body: { obj: { project_id, object_id: 'same', val: { prompt: 'be brief' } } } }).then((r) => r.digest),
    );
    expect(new Set(digests).size).toBe(1);
    const { objs } = await clients[1]!.POST('/objs/query', { body: { project_id, filter: { object_ids: ['same'] } } });
    expect(objs).toHaveLength(1);
    expect(objs[0]).toMatchObject({ version_index: 0, is_latest: 1 });
  });

  it('concurrent table/create of the same rows gives one table and identical answers', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => ({ question: `q${i}`, expected: { difficulty: i % 7 } }));
    const answers = await spread(20, (c) => c.POST('/table/create', { body: { table: { project_id, rows } } }));
    for (const a of answers) expect(a).toEqual(answers[0]);
    const { rows: stored } = await clients[0]!.POST('/table/query', { body: { project_id, digest: answers[0]!.digest } });
    expect(stored.map((r) => r.val)).toEqual(rows);
  });

  it('concurrent updates of different queue fields all survive', async () => {
    const { id } = await clients[0]!.POST('/annotation_queues', { body: { project_id, name: 'review', scorer_refs: [] } });
    const path = { params: { path: { queue_id: id } } } as const;
    const refs = ['weave:///acme/replicas/scorer/tone:abc'];
    await Promise.all([
      clients[0]!.PUT('/annotation_queues/{queue_id}', { ...path, body: { project_id, name: 'renamed' } }),
      clients[1]!.PUT('/annotation_queues/{queue_id}', { ...path, body: { project_id, description: 'new description' } }),
      clients[0]!.PUT('/annotation_queues/{queue_id}', { ...path, body: { project_id, scorer_refs: refs } }),
    ]);
    const { queue } = await clients[1]!.GET('/annotation_queues/{queue_id}', { params: { path: { queue_id: id }, query: { project_id } } });
    expect(queue).toMatchObject({ name: 'renamed', description: 'new description', scorer_refs: refs });
  });

  it('concurrent start and end of the same call, in either order, merge into one call', async () => {
    const ids = Array.from({ length: 30 }, (_, i) => `0197331c-0000-7000-8000-${String(i).padStart(12, '0')}`);
    await Promise.all(
      ids.flatMap((id, i) => {
        const start = () =>
          clients[i % 2]!.POST('/call/start', {
            body: {
              start: {
                project_id,
                id,
                trace_id: id,
                op_name: 'answer',
                started_at: '2025-06-03T09:41:27.512Z',
                attributes: {},
                inputs: { i },
              },
            },
          });
        const end = () =>
          clients[(i + 1) % 2]!.POST('/call/end', {
            body: { end: { project_id, id, ended_at: '2025-06-03T09:41:28.000Z', output: { answer: i }, summary: {} } },
          });
        return i % 2 === 0 ? [start(), end()] : [end(), start()];
      }),
    );
    for (const [i, id] of ids.entries()) {
      const { call } = await clients[0]!.POST('/call/read', { body: { project_id, id } });
      expect(call).toMatchObject({ id, inputs: { i }, output: { answer: i }, ended_at: '2025-06-03T09:41:28.000Z' });
      expect((call.summary as { weave: { status: string } }).weave.status).toBe('success');
    }
  });

  it('a key revoked with `weft keys revoke` is refused by both replicas from their next request', async () => {
    // The operator's commands, against the replicas' database, as `weft keys …` runs them.
    const weftKeys = async (...argv: string[]) => {
      let stdout = '';
      const io = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: () => true } };
      const unused = () => Promise.reject(new Error('not a keys command'));
      const config = loadConfig({ DATABASE_URL: db.url, DATA_DIR: dir, LOG_LEVEL: 'silent' });
      const code = await runWeft(['keys', ...argv], io, {
        serve: unused,
        migrate: unused,
        migrateStatus: unused,
        demo: unused,
        openKeys: () => openKeyDatabase(config),
      });
      expect(code, argv.join(' ')).toBe(0);
      return stdout.trim();
    };
    const dbKey = await weftKeys('create', '--user', 'carol', '--entity', 'acme');
    const read = (replica: ServerProcess) =>
      fetch(`${replica.url}/objs/query`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`api:${dbKey}`).toString('base64')}`, 'content-type': 'application/json' },
        body: JSON.stringify({ project_id, limit: 1 }),
      }).then(async (r) => ({ status: r.status, reason: r.ok ? undefined : ((await r.json()) as { reason: string }).reason }));
    expect(await Promise.all(replicas.map(read))).toEqual([{ status: 200 }, { status: 200 }].map((a) => ({ ...a, reason: undefined })));

    await weftKeys('revoke', dbKey.slice(0, 17));
    // No waiting: the very next request on either replica is refused.
    expect(await Promise.all(replicas.map(read))).toEqual([0, 1].map(() => ({ status: 401, reason: 'API key revoked' })));
    // The auth file's key, loaded at start, is untouched.
    await expect(clients[1]!.POST('/objs/query', { body: { project_id, limit: 1 } })).resolves.toBeDefined();
  });
});
