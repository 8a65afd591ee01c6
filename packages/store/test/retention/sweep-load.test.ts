// The sweep under load: on a SQLite file its reads run on the reader thread and its writes in
// small transactions, so the event loop is never held for long; on PostgreSQL two replicas that
// sweep at once neither fail nor delete anything twice (one of them skips the round), and a
// sweep holds one pooled connection, whatever the pool's size.
import { expect, it } from 'vitest';
import { createStore } from '../../src/create-store.ts';
import { callRef } from '../../src/feedback/call-feedback.ts';
import { sweepExpired } from '../../src/retention/sweep.ts';
import { migrateToLatest, openDatabase } from '../../src/db/index.ts';
import { describeEachDialect, describeIfPostgres, describeTwoReplicas } from '../dialects.ts';
import { catalogue, ctx, startReq, T0 } from '../calls/call-fixtures.ts';

const after = (days: number) => () => new Date(Date.parse(T0) + days * 86_400_000);

/** The longest time the event loop went without a turn while `work` ran, in ms. */
async function longestStall<R>(work: () => Promise<R>): Promise<{ value: R; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  let running = true;
  const tick = () => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  try {
    return { value: await work(), stallMs };
  } finally {
    running = false;
  }
}

async function seed(store: ReturnType<typeof createStore>, project: string, calls: number): Promise<void> {
  await store.projectTtlSettingsUpdate({ project_id: project, retention_days: 1 }, ctx);
  const { digest } = await store.fileCreate({ project_id: project, content: new TextEncoder().encode(`logo of ${project}`) }, ctx);
  // Big enough that one transaction over all of them would hold the loop far longer than a batch.
  const inputs = { prompt: 'p'.repeat(8000), logo: { _type: 'CustomWeaveType', files: { 'logo.png': digest } } };
  for (let i = 0; i < calls; i += 500) {
    const batch = Array.from({ length: Math.min(500, calls - i) }, (_, j) => ({
      mode: 'start' as const,
      req: startReq(project, { id: `c${i + j}`, inputs }),
    }));
    await store.callUpsertBatch({ batch }, ctx);
  }
  for (let i = 0; i < calls; i += 10) {
    await store.feedbackCreate({ project_id: project, weave_ref: callRef(project, `c${i}`), feedback_type: 'x', payload: {} }, ctx);
  }
}

describeEachDialect(
  'retention sweep under load',
  (getDb, variant) => {
    it('deletes thousands of calls without holding the event loop', async () => {
      const db = getDb();
      const store = createStore({ db, catalogue });
      await seed(store, 'load/p', 3000);
      const { value, stallMs } = await longestStall(() => sweepExpired(db, { now: after(2), fileGraceMs: 0 }));
      expect(value).toMatchObject({ calls: 3000, feedback: 300, files: 1 });
      expect(value.batches).toBeGreaterThanOrEqual(30);
      // Off the reader thread (SQLite in memory) the reads run inline: only the file is measured.
      // Generous for a shared CI machine; one transaction over everything takes several times more.
      // A commit's fsync on a busy disk can stall once: a sweep that holds the loop does so again,
      // so a second sweep of as many calls decides.
      if (variant === 'sqlite file' && stallMs >= 50) {
        await seed(store, 'load/again', 3000);
        const again = await longestStall(() => sweepExpired(db, { now: after(2), fileGraceMs: 0 }));
        expect(again.value).toMatchObject({ calls: 3000, feedback: 300 });
        expect(again.stallMs).toBeLessThan(50);
      }
    });
  },
  { sqliteFile: true },
);

describeIfPostgres('retention sweep on a pool of one connection [postgres]', (getUrl) => {
  it('does all its work on the connection that holds the lock', async () => {
    const db = await openDatabase(getUrl(), { pool: { max: 1, connectionTimeoutMs: 2000 } });
    try {
      await migrateToLatest(db);
      await seed(createStore({ db, catalogue }), 'pool/p', 300);
      expect(await sweepExpired(db, { now: after(2), fileGraceMs: 0 })).toMatchObject({ calls: 300, feedback: 30, files: 1 });
    } finally {
      await db.close();
    }
  });
});

describeTwoReplicas('retention sweep on two replicas [postgres]', (replicas) => {
  it('lets one replica sweep at a time: nothing fails, nothing is deleted twice', async () => {
    const [a, b] = replicas();
    await seed(createStore({ db: a, catalogue }), 'replicas/p', 1000);
    const results = await Promise.all([a, b, a, b].map((db) => sweepExpired(db, { now: after(2), fileGraceMs: 0, batchCalls: 50 })));
    const swept = results.filter((r) => !r.skipped);
    expect(swept.length).toBeGreaterThanOrEqual(1);
    expect(results.reduce((n, r) => n + r.calls, 0)).toBe(1000);
    expect(results.reduce((n, r) => n + r.feedback, 0)).toBe(100);
    expect(results.reduce((n, r) => n + r.files, 0)).toBe(1);
    // Held while sweeping: some round met the lock and skipped (they started together).
    expect(results.some((r) => r.skipped)).toBe(true);
    const left = await b.kysely.selectFrom('calls').select('id').where('project_id', '=', 'replicas/p').execute();
    expect(left).toEqual([]);
    // The lock is free again afterwards.
    expect(await sweepExpired(b, { now: after(2) })).toMatchObject({ skipped: false, calls: 0 });
  });
});
