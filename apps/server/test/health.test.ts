// GET /health tells a load balancer whether this replica can reach its database.
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

  it('answers 200 ok, then 503 degraded once its database is gone', async () => {
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
    expect(after.status).toBe(503);
    expect(await after.json()).toEqual({ status: 'degraded', database: 'unreachable' });
  });
});
