// Two replicas updating different fields of the same queue at the same moment, each through its
// own PostgreSQL pool: both changes must survive.
//
// To make the race certain rather than likely, a third connection holds the row lock while both
// updates are sent, and releases it only once both are waiting for it. A read-merge-write update
// would have read the old row by then and the second writer would overwrite the first's field.
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeTwoReplicas } from '../dialects.ts';
import { ctx, queuesOf, REF } from './queue-fixtures.ts';

describeTwoReplicas('annotation queue update from two replicas [postgres]', (replicas, getUrl) => {
  let locker: pg.Client | undefined;
  beforeAll(async () => {
    locker = new pg.Client({ connectionString: getUrl() });
    await locker.connect();
  });
  afterAll(async () => {
    await locker?.end();
  });

  /** Backends of this database waiting for a lock. */
  async function waitingForLock(): Promise<number> {
    const res = await (locker as pg.Client).query(
      `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    );
    return (res.rows[0] as { n: number }).n;
  }

  it('keeps both of two concurrent updates of different fields', async () => {
    const a = queuesOf(replicas()[0]);
    const b = queuesOf(replicas()[1]);
    const p = 'aqc/update';
    const { id } = await a.annotationQueueCreate({ project_id: p, name: 'old name', description: 'old description', scorer_refs: [] }, ctx);
    const key = { project_id: p, queue_id: id };

    const lock = locker as pg.Client;
    await lock.query('begin');
    await lock.query('select 1 from annotation_queues where project_id = $1 and id = $2 for update', [p, id]);
    const updates = Promise.all([
      a.annotationQueueUpdate({ ...key, name: 'new name' }, ctx),
      b.annotationQueueUpdate({ ...key, description: 'new description', scorer_refs: [REF] }, ctx),
    ]);
    const deadline = Date.now() + 10_000;
    while ((await waitingForLock()) < 2) {
      if (Date.now() > deadline) throw new Error('the two updates never queued behind the row lock');
      await new Promise((r) => setTimeout(r, 10));
    }
    await lock.query('commit');
    const [first, second] = await updates;

    const expected = { name: 'new name', description: 'new description', scorer_refs: [REF] };
    expect((await a.annotationQueueRead(key, ctx)).queue).toMatchObject(expected);
    // Whichever ran second saw the other's change in the row it returned.
    expect([first.queue, second.queue].some((q) => q.name === 'new name' && q.description === 'new description')).toBe(true);
  });

  it('keeps every field over many concurrent rounds', async () => {
    const a = queuesOf(replicas()[0]);
    const b = queuesOf(replicas()[1]);
    const p = 'aqc/rounds';
    const { id } = await a.annotationQueueCreate({ project_id: p, name: 'n', scorer_refs: [] }, ctx);
    const key = { project_id: p, queue_id: id };
    for (let round = 0; round < 30; round++) {
      await Promise.all([
        a.annotationQueueUpdate({ ...key, name: `name ${round}` }, ctx),
        b.annotationQueueUpdate({ ...key, description: `description ${round}` }, ctx),
      ]);
      expect((await b.annotationQueueRead(key, ctx)).queue).toMatchObject({ name: `name ${round}`, description: `description ${round}` });
    }
  });
});
