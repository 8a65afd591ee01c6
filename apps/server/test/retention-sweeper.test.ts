// The server's retention sweeper on its own: it sweeps every interval, 0 turns it off, and stop()
// ends a running sweep after its current batch and waits for it, so the database can close.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { loadCatalogue } from '@weft/core';
import { createStore, migrateToLatest, openDatabase, type Db, type SweepCounts } from '@weft/store';
import { startSweeper } from '../src/retention/sweeper.ts';

const logger = pino({ level: 'silent' });
const catalogue = await loadCatalogue();
const ctx = { user: 'alice' };
let dir: string;
let db: Db;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'weft-sweeper-'));
  db = await openDatabase(`sqlite:${join(dir, 'weft.sqlite')}`);
  await migrateToLatest(db);
});
afterEach(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `n` calls of a project with a 1-day retention, started 3 days ago: all expired. */
async function seedExpired(n: number): Promise<void> {
  const store = createStore({ db, catalogue });
  const project_id = 'acme/sweeper';
  await store.projectTtlSettingsUpdate({ project_id, retention_days: 1 }, ctx);
  const started_at = new Date(Date.now() - 3 * 86_400_000).toISOString();
  const batch = Array.from({ length: n }, (_, i) => ({
    mode: 'start' as const,
    req: { start: { project_id, id: `c${i}`, op_name: 'op', started_at, attributes: {}, inputs: { text: 'x'.repeat(2000) } } },
  }));
  await store.callUpsertBatch({ batch }, ctx);
}

const remaining = async () =>
  Number(
    (
      await db.kysely
        .selectFrom('calls')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

it('sweeps every interval, counting each batch', async () => {
  await seedExpired(250);
  const batches: SweepCounts[] = [];
  let sweptAll: () => void;
  const allSwept = new Promise<void>((resolve) => (sweptAll = resolve));
  const sweeper = startSweeper(db, {
    intervalMs: 20,
    fileGraceMs: 0,
    logger,
    onBatch: (d) => {
      batches.push(d);
      if (batches.reduce((n, b) => n + b.calls, 0) >= 250) sweptAll();
    },
  });
  await allSwept;
  await sweeper.stop();
  expect(await remaining()).toBe(0);
  expect(batches.reduce((n, d) => n + d.calls, 0)).toBe(250);
  expect(batches.every((d) => d.calls <= 100)).toBe(true);
});

it('stops after the running batch and waits for it, so the database closes cleanly', async () => {
  await seedExpired(2000);
  let batches = 0;
  let stopped = false;
  let afterStop = 0;
  let sweeper: ReturnType<typeof startSweeper> | undefined;
  const firstBatch = new Promise<void>((resolve) => {
    sweeper = startSweeper(db, {
      intervalMs: 1,
      fileGraceMs: 0,
      logger,
      onBatch: () => {
        batches++;
        if (stopped) afterStop++;
        resolve();
      },
    });
  });
  await firstBatch;
  const stopping = sweeper!.stop();
  stopped = true;
  await stopping;
  const left = await remaining();
  // The sweep ended early, with at most the batch that was running when stop() was called.
  expect(left).toBeGreaterThan(0);
  expect(afterStop).toBeLessThanOrEqual(1);
  // Nothing left to delete more later: no round scheduled, none running.
  expect(sweeper!.idle).toBe(true);
  expect(batches).toBeLessThan(20);
});

it('does nothing with an interval of 0', async () => {
  await seedExpired(10);
  const sweeper = startSweeper(db, { intervalMs: 0, fileGraceMs: 0, logger });
  // No round is ever scheduled, so there is nothing to wait for.
  expect(sweeper.idle).toBe(true);
  await sweeper.stop();
  expect(await remaining()).toBe(10);
});
