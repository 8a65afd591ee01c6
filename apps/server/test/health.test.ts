// Health and readiness when the database goes away: the process stays live (/live and /health
// 200, /health saying `degraded`), so an orchestrator does not restart every replica, while /ready
// is 503 naming the cause, so a load balancer takes the replica out; requests answer 503.
import { afterAll, beforeAll, expect, it } from 'vitest';
import pg from 'pg';
import { pino } from 'pino';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPgTestDatabase, describeIfPostgres, TEST_PG_URL } from '@weft/store/testing';
import { loadConfig } from '../src/config.ts';
import { startServer, type RunningServer } from '../src/server.ts';

describeIfPostgres('GET /health when PostgreSQL goes away', () => {
  let db: { url: string; drop(): Promise<void> };
  let server: RunningServer;
  beforeAll(async () => {
    db = await createPgTestDatabase();
    const dir = mkdtempSync(join(tmpdir(), 'weft-health-'));
    server = await startServer(loadConfig({ PORT: '0', DATA_DIR: dir, DATABASE_URL: db.url }), pino({ level: 'silent' }));
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  it('answers 200 ok, then 200 degraded (and /ready 503) once its database is gone', async () => {
    const before = await fetch(`${server.url}/health`);
    expect(before.status).toBe(200);
    expect(await before.json()).toEqual({ status: 'ok', database: 'ok' });

    // Terminate the replica's connections and drop its database, as an outage would.
    const admin = new pg.Client({ connectionString: TEST_PG_URL });
    await admin.connect();
    try {
      await admin.query(`drop database ${new URL(db.url).pathname.slice(1)} with (force)`);
    } finally {
      await admin.end();
    }
    const after = await fetch(`${server.url}/health`);
    expect(after.status).toBe(200);
    expect(await after.json()).toEqual({ status: 'degraded', database: 'unreachable' });
    const live = await fetch(`${server.url}/live`);
    expect([live.status, await live.json()]).toEqual([200, { status: 'ok' }]);
    const ready = await fetch(`${server.url}/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({
      status: 'not_ready',
      database: 'unreachable',
      migrations: 'unknown',
      draining: false,
      reason: expect.stringContaining('The database is unavailable') as string,
    });
  });
});
