// Annotation queues: create, read, query, update, delete, on both databases.
import { afterEach, expect, it, vi } from 'vitest';
import { describeEachDialect } from '../dialects.ts';
import { all, ctx, queuesOf, REF } from './queue-fixtures.ts';

const UUIDV7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Runs `fn` with the clock (Date only) at `iso`. */
async function at<R>(iso: string, fn: () => Promise<R>): Promise<R> {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(iso));
  try {
    return await fn();
  } finally {
    vi.useRealTimers();
  }
}

afterEach(() => {
  vi.useRealTimers();
});

describeEachDialect('annotation queues', (getDb) => {
  it('creates a queue: uuidv7 id, created_by the user, description defaulting to ""', async () => {
    const q = queuesOf(getDb());
    const { id } = await at('2025-06-03T09:00:00.000Z', () =>
      q.annotationQueueCreate({ project_id: 'aq/new', name: 'Review', scorer_refs: [REF] }, ctx),
    );
    expect(id).toMatch(UUIDV7);
    expect(await q.annotationQueueRead({ project_id: 'aq/new', queue_id: id }, ctx)).toEqual({
      queue: {
        id,
        project_id: 'aq/new',
        name: 'Review',
        description: '',
        scorer_refs: [REF],
        created_at: '2025-06-03T09:00:00.000Z',
        created_by: 'alice',
        updated_at: '2025-06-03T09:00:00.000Z',
      },
    });
    const other = await q.annotationQueueCreate(
      { project_id: 'aq/new', name: 'Other', description: 'Why', scorer_refs: ['not even a ref'] },
      { user: 'bob' },
    );
    expect((await q.annotationQueueRead({ project_id: 'aq/new', queue_id: other.id }, ctx)).queue).toMatchObject({
      description: 'Why',
      scorer_refs: ['not even a ref'],
      created_by: 'bob',
    });
  });

  it('reads only live queues of their own project', async () => {
    const q = queuesOf(getDb());
    const { id } = await q.annotationQueueCreate({ project_id: 'aq/read', name: 'Q', scorer_refs: [] }, ctx);
    for (const key of [
      { project_id: 'aq/elsewhere', queue_id: id },
      { project_id: 'aq/read', queue_id: 'missing' },
    ]) {
      await expect(q.annotationQueueRead(key, ctx)).rejects.toMatchObject({
        status: 404,
        errorType: 'NotFoundError',
        message: `Queue ${key.queue_id} not found`,
      });
    }
    await q.annotationQueueDelete({ project_id: 'aq/read', queue_id: id }, ctx);
    await expect(q.annotationQueueRead({ project_id: 'aq/read', queue_id: id }, ctx)).rejects.toMatchObject({
      status: 404,
      message: `Queue ${id} not found`,
    });
  });

  it('queries live queues, newest first with ties by id, paged', async () => {
    const q = queuesOf(getDb());
    const p = 'aq/query';
    const make = (name: string, iso: string) => at(iso, () => q.annotationQueueCreate({ project_id: p, name, scorer_refs: [] }, ctx));
    const a = await make('alpha', '2025-01-01T00:00:00.000Z');
    const b = await make('Beta', '2025-01-02T00:00:00.000Z');
    const c1 = await make('gamma', '2025-01-03T00:00:00.000Z');
    const c2 = await make('delta', '2025-01-03T00:00:00.000Z');
    const gone = await make('deleted', '2025-01-04T00:00:00.000Z');
    await q.annotationQueueDelete({ project_id: p, queue_id: gone.id }, ctx);
    await q.annotationQueueCreate({ project_id: 'aq/query-other', name: 'alpha', scorer_refs: [] }, ctx);

    const ids = async (req: Record<string, unknown> = {}) =>
      (await all(q.annotationQueuesQuery({ project_id: p, ...req }, ctx))).map((x) => x.id);
    const sameMs = [c1.id, c2.id].sort();
    expect(await ids()).toEqual([...sameMs, b.id, a.id]);
    expect(await ids({ limit: 2 })).toEqual(sameMs);
    expect(await ids({ limit: 2, offset: 2 })).toEqual([b.id, a.id]);
    expect(await ids({ offset: 3 })).toEqual([a.id]);
    expect(await ids({ limit: 0 })).toEqual([]);
    expect(await ids({ limit: null, offset: null, sort_by: null, name: null })).toEqual([...sameMs, b.id, a.id]);

    const rows = await all(q.annotationQueuesQuery({ project_id: p, limit: 1 }, ctx));
    expect(rows[0]).toMatchObject({ project_id: p, created_by: 'alice', scorer_refs: [] });
    expect(rows[0] && 'deleted_at' in rows[0]).toBe(false);
  });

  it('sorts by id, name, created_at and updated_at', async () => {
    const q = queuesOf(getDb());
    const p = 'aq/sort';
    const make = (name: string, iso: string) => at(iso, () => q.annotationQueueCreate({ project_id: p, name, scorer_refs: [] }, ctx));
    const x = await make('b', '2025-01-01T00:00:00.000Z');
    const y = await make('a', '2025-01-02T00:00:00.000Z');
    const z = await make('C', '2025-01-03T00:00:00.000Z');
    await at('2025-02-01T00:00:00.000Z', () => q.annotationQueueUpdate({ project_id: p, queue_id: x.id, description: 'touched' }, ctx));
    const names = async (sort_by: { field: 'id' | 'name' | 'created_at' | 'updated_at'; direction: 'asc' | 'desc' }[]) =>
      (await all(q.annotationQueuesQuery({ project_id: p, sort_by }, ctx))).map((r) => r.name);

    expect(await names([{ field: 'name', direction: 'asc' }])).toEqual(['C', 'a', 'b']); // byte order
    expect(await names([{ field: 'name', direction: 'desc' }])).toEqual(['b', 'a', 'C']);
    expect(await names([{ field: 'created_at', direction: 'asc' }])).toEqual(['b', 'a', 'C']);
    expect(await names([{ field: 'updated_at', direction: 'desc' }])).toEqual(['b', 'C', 'a']);
    // uuidv7 ids follow creation time: x < y < z.
    expect([x.id, y.id, z.id].sort()).toEqual([x.id, y.id, z.id]);
    expect(await names([{ field: 'id', direction: 'desc' }])).toEqual(['C', 'a', 'b']);
  });

  it('filters by a case-insensitive name substring, with % and _ as plain characters', async () => {
    const q = queuesOf(getDb());
    const p = 'aq/name';
    for (const name of ['Safety Review', 'safety-check', '100% done', '100 percent', 'a_b', 'axb']) {
      await q.annotationQueueCreate({ project_id: p, name, scorer_refs: [] }, ctx);
    }
    const names = async (name: string) =>
      (await all(q.annotationQueuesQuery({ project_id: p, name, sort_by: [{ field: 'name', direction: 'asc' }] }, ctx))).map((r) => r.name);
    expect(await names('SAFETY')).toEqual(['Safety Review', 'safety-check']);
    expect(await names('%')).toEqual(['100% done']);
    expect(await names('0%')).toEqual(['100% done']);
    expect(await names('_')).toEqual(['a_b']);
    expect(await names('nothing')).toEqual([]);
    expect(await names('')).toHaveLength(6);
  });

  it('updates only the supplied, non-null fields and bumps updated_at', async () => {
    const q = queuesOf(getDb());
    const p = 'aq/update';
    const { id } = await at('2025-01-01T00:00:00.000Z', () =>
      q.annotationQueueCreate({ project_id: p, name: 'N', description: 'D', scorer_refs: [REF] }, ctx),
    );
    const key = { project_id: p, queue_id: id };

    const renamed = await at('2025-01-02T00:00:00.000Z', () => q.annotationQueueUpdate({ ...key, name: 'N2', description: null }, ctx));
    expect(renamed.queue).toEqual({
      id,
      project_id: p,
      name: 'N2',
      description: 'D',
      scorer_refs: [REF],
      created_at: '2025-01-01T00:00:00.000Z',
      created_by: 'alice',
      updated_at: '2025-01-02T00:00:00.000Z',
    });
    const refs = await at('2025-01-03T00:00:00.000Z', () => q.annotationQueueUpdate({ ...key, scorer_refs: [], description: '' }, ctx));
    expect(refs.queue).toMatchObject({ name: 'N2', description: '', scorer_refs: [], updated_at: '2025-01-03T00:00:00.000Z' });

    // Nothing to change: the stored queue, updated_at included.
    const same = await at('2025-01-04T00:00:00.000Z', () => q.annotationQueueUpdate({ ...key, name: null, scorer_refs: null }, ctx));
    expect(same).toEqual(refs);
    expect(await q.annotationQueueRead(key, ctx)).toEqual(refs);
  });

  it('answers 404 to updating a missing, deleted or foreign queue', async () => {
    const q = queuesOf(getDb());
    const p = 'aq/update404';
    const { id } = await q.annotationQueueCreate({ project_id: p, name: 'N', scorer_refs: [] }, ctx);
    await q.annotationQueueDelete({ project_id: p, queue_id: id }, ctx);
    const live = await q.annotationQueueCreate({ project_id: p, name: 'live', scorer_refs: [] }, ctx);
    for (const [key, name] of [
      [{ project_id: p, queue_id: 'missing' }, 'x'],
      [{ project_id: p, queue_id: id }, 'x'],
      [{ project_id: p, queue_id: id }, null], // nothing to change still checks the queue
      [{ project_id: 'aq/other', queue_id: live.id }, 'x'],
    ] as const) {
      await expect(q.annotationQueueUpdate({ ...key, name }, ctx)).rejects.toMatchObject({
        status: 404,
        message: `Queue ${key.queue_id} not found or already deleted`,
      });
    }
    expect((await q.annotationQueueRead({ project_id: p, queue_id: live.id }, ctx)).queue.name).toBe('live');
  });

  it('soft-deletes: deleted_at = updated_at = now, once', async () => {
    const db = getDb();
    const q = queuesOf(db);
    const p = 'aq/delete';
    const { id } = await at('2025-01-01T00:00:00.000Z', () =>
      q.annotationQueueCreate({ project_id: p, name: 'N', scorer_refs: [REF] }, ctx),
    );
    const key = { project_id: p, queue_id: id };
    await expect(q.annotationQueueDelete({ project_id: 'aq/other', queue_id: id }, ctx)).rejects.toMatchObject({ status: 404 });

    const { queue } = await at('2025-01-05T00:00:00.000Z', () => q.annotationQueueDelete(key, ctx));
    expect(queue).toEqual({
      id,
      project_id: p,
      name: 'N',
      description: '',
      scorer_refs: [REF],
      created_by: 'alice',
      created_at: '2025-01-01T00:00:00.000Z',
      updated_at: '2025-01-05T00:00:00.000Z',
      deleted_at: '2025-01-05T00:00:00.000Z',
    });
    await expect(q.annotationQueueDelete(key, ctx)).rejects.toMatchObject({
      status: 404,
      message: `Queue ${id} not found or already deleted`,
    });
    await expect(q.annotationQueueDelete({ project_id: p, queue_id: 'missing' }, ctx)).rejects.toMatchObject({ status: 404 });
    expect(await all(q.annotationQueuesQuery({ project_id: p }, ctx))).toEqual([]);
    // Soft: the row is still there.
    const rows = await db.kysely.selectFrom('annotation_queues').select('deleted_at').where('project_id', '=', p).execute();
    expect(rows).toEqual([{ deleted_at: '2025-01-05T00:00:00.000Z' }]);
  });
});
