// The schema conventions hold identically in both databases: same JS shapes back, same
// constraints enforced, same Kysely constructs (upserts, RETURNING, transactions) working.
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { jsonParam, jsonText, jsonTextAsWritten, nowIso, readJson, type Db } from '../src/db/index.ts';
import { describeEachDialect } from './dialects.ts';

const T0 = '2025-01-01T00:00:00.000Z';

describeEachDialect('conventions', (getDb) => {
  it('returns the same JS shapes: numbers, Buffers, text datetimes, JSON via readJson', async () => {
    const db = getDb();
    const content = Buffer.from([0, 1, 2, 255, 0]);
    await db.kysely.insertInto('files').values({ project_id: 'shapes/p', digest: 'f1', size_bytes: 5, content, created_at: T0 }).execute();
    const file = await db.kysely.selectFrom('files').selectAll().where('project_id', '=', 'shapes/p').executeTakeFirstOrThrow();
    expect(Buffer.isBuffer(file.content)).toBe(true);
    expect(file.content.equals(content)).toBe(true);
    expect(file).toMatchObject({ size_bytes: 5, created_at: T0 });

    await db.kysely
      .insertInto('trajectory_logs')
      .values(log(db, 'shapes/p', 'l1'))
      .execute();
    await db.kysely
      .insertInto('trajectory_groups')
      .values({ project_id: 'shapes/p', log_id: 'l1', group_index: 0, data: jsonParam(db, {}) })
      .execute();
    await db.kysely
      .insertInto('trajectories')
      .values(
        [0.1, 0.2, 1e-300].map((reward, i) => ({
          project_id: 'shapes/p',
          log_id: 'l1',
          group_index: 0,
          trajectory_index: i,
          reward,
          data: jsonParam(db, { i }),
        })),
      )
      .execute();
    const rewards = await db.kysely
      .selectFrom('trajectories')
      .select('reward')
      .where('project_id', '=', 'shapes/p')
      .orderBy('trajectory_index')
      .execute();
    expect(rewards.map((r) => r.reward)).toEqual([0.1, 0.2, 1e-300]); // doubles in both

    const agg = await db.kysely
      .selectFrom('trajectories')
      .select((eb) => [eb.fn.countAll().as('n'), eb.fn.sum('trajectory_index').as('total'), eb.fn.avg('trajectory_index').as('mean')])
      .where('project_id', '=', 'shapes/p')
      .executeTakeFirstOrThrow();
    expect(agg).toEqual({ n: 3, total: 3, mean: 1 });

    const data = await db.kysely
      .selectFrom('trajectories')
      .select('data')
      .where('project_id', '=', 'shapes/p')
      .orderBy('trajectory_index')
      .execute();
    expect(data.map((r) => readJson(db, r.data))).toEqual([{ i: 0 }, { i: 1 }, { i: 2 }]);
  });

  it('round-trips JSON values of every kind', async () => {
    const db = getDb();
    const values: unknown[] = [
      { nested: { a: [1, 2.5, -3e-7, 'x'], b: null, c: true } },
      [],
      {},
      'a "quoted" string with \\ and ünïcödé 😀',
      42,
      -0.5,
      false,
      null,
    ];
    await db.kysely
      .insertInto('rows')
      .values(values.map((v, i) => ({ project_id: 'json/p', digest: `d${i}`, val: jsonTextAsWritten(db, JSON.stringify(v)) })))
      .execute();
    const back = await db.kysely
      .selectFrom('rows')
      .select(['digest', 'val'])
      .where('project_id', '=', 'json/p')
      .orderBy('digest')
      .execute();
    expect(back.map((r) => readJson(db, r.val))).toEqual(values);
  });

  it('enforces NOT NULL, types (SQLite STRICT), 0/1 flags and valid JSON', async () => {
    const db = getDb();
    const obj = {
      project_id: 'c/p',
      object_id: 'o',
      digest: 'd',
      version_index: 0,
      kind: 'object',
      base_object_class: null,
      leaf_object_class: null,
      val: jsonTextAsWritten(db, '{}'),
      size_bytes: 2,
      created_at: T0,
      deleted_at: null,
      svc_user_id: null,
      is_latest: 1 as const,
    };
    await db.kysely.insertInto('objects').values(obj).execute();
    await expect(
      db.kysely
        .insertInto('objects')
        .values({ ...obj, digest: 'd2', version_index: 1, is_latest: 2 as 1 })
        .execute(),
    ).rejects.toThrow(/check/i);
    await expect(
      db.kysely
        .insertInto('objects')
        .values({ ...obj, digest: 'd3', version_index: 'abc' as unknown as number })
        .execute(),
    ).rejects.toThrow();
    await expect(
      db.kysely
        .insertInto('objects')
        .values({ ...obj, digest: 'd4', version_index: 4, kind: null as unknown as string })
        .execute(),
    ).rejects.toThrow(/null/i);
    await expect(
      db.kysely
        .insertInto('objects')
        .values({ ...obj, digest: 'd5', version_index: 0 })
        .execute(),
    ).rejects.toThrow(/unique/i);
    await expect(
      db.kysely
        .insertInto('rows')
        .values({ project_id: 'c/p', digest: 'bad', val: jsonTextAsWritten(db, '{"a":') })
        .execute(),
    ).rejects.toThrow();
  });

  it('cascades deletes from a trajectory log to its groups and trajectories', async () => {
    const db = getDb();
    await db.kysely
      .insertInto('trajectory_logs')
      .values(log(db, 'fk/p', 'l'))
      .execute();
    await db.kysely
      .insertInto('trajectory_groups')
      .values({ project_id: 'fk/p', log_id: 'l', group_index: 0, data: jsonParam(db, {}) })
      .execute();
    await db.kysely
      .insertInto('trajectories')
      .values({ project_id: 'fk/p', log_id: 'l', group_index: 0, trajectory_index: 0, reward: 1, data: jsonParam(db, {}) })
      .execute();
    await db.kysely.deleteFrom('trajectory_logs').where('project_id', '=', 'fk/p').execute();
    const left = await db.kysely.selectFrom('trajectories').select('log_id').where('project_id', '=', 'fk/p').execute();
    expect(left).toEqual([]);
  });

  it('supports insert-or-ignore, upsert with excluded values, and RETURNING the same way', async () => {
    const db = getDb();
    const row = { project_id: 'upsert/p', digest: 'r', val: jsonTextAsWritten(db, '{"v":1}') };
    const first = await db.kysely
      .insertInto('rows')
      .values(row)
      .onConflict((oc) => oc.columns(['project_id', 'digest']).doNothing())
      .executeTakeFirst();
    const again = await db.kysely
      .insertInto('rows')
      .values({ ...row, val: jsonTextAsWritten(db, '{"v":2}') })
      .onConflict((oc) => oc.columns(['project_id', 'digest']).doNothing())
      .returning('digest')
      .execute();
    expect(first.numInsertedOrUpdatedRows).toBe(1n);
    expect(again).toEqual([]); // ignored rows are not returned
    const stored = await db.kysely.selectFrom('rows').select('val').where('project_id', '=', 'upsert/p').executeTakeFirstOrThrow();
    expect(readJson(db, stored.val)).toEqual({ v: 1 });

    // Merge a call's end into its start, in either order, keeping what each side knows.
    const start = { project_id: 'upsert/p', id: 'c1', op_name: 'op', started_at: T0 };
    const end = { project_id: 'upsert/p', id: 'c1', ended_at: '2025-01-01T00:00:01.000Z', output: jsonParam(db, 'done') };
    for (const part of [end, start]) {
      await db.kysely
        .insertInto('calls')
        .values(part)
        .onConflict((oc) =>
          oc.columns(['project_id', 'id']).doUpdateSet((eb) => ({
            op_name: eb.fn.coalesce('excluded.op_name', 'calls.op_name'),
            started_at: eb.fn.coalesce('excluded.started_at', 'calls.started_at'),
            ended_at: eb.fn.coalesce('excluded.ended_at', 'calls.ended_at'),
            output: eb.fn.coalesce('excluded.output', 'calls.output'),
          })),
        )
        .execute();
    }
    const call = await db.kysely
      .selectFrom('calls')
      .select(['op_name', 'started_at', 'ended_at', 'output'])
      .where('project_id', '=', 'upsert/p')
      .executeTakeFirstOrThrow();
    expect({ ...call, output: readJson(db, call.output) }).toEqual({
      op_name: 'op',
      started_at: T0,
      ended_at: '2025-01-01T00:00:01.000Z',
      output: 'done',
    });

    const returned = await db.kysely
      .updateTable('calls')
      .set({ deleted_at: nowIso() })
      .where('project_id', '=', 'upsert/p')
      .returning(['id', 'deleted_at'])
      .execute();
    expect(returned).toEqual([{ id: 'c1', deleted_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) }]);
  });

  it('rolls back a failed transaction', async () => {
    const db = getDb();
    await expect(
      db.kysely.transaction().execute(async (trx) => {
        await trx.insertInto('tables').values({ project_id: 'tx/p', digest: 't', row_count: 0, created_at: T0 }).execute();
        await sql`select * from no_such_table`.execute(trx);
      }),
    ).rejects.toThrow(/no_such_table/);
    const left = await db.kysely.selectFrom('tables').select('digest').where('project_id', '=', 'tx/p').execute();
    expect(left).toEqual([]);
  });
});

function log(db: Db, project_id: string, id: string) {
  return {
    project_id,
    id,
    model_id: 'm',
    split: 'val',
    step: 0,
    created_at: T0,
    metrics: jsonText(db, '{}'),
    group_count: 1,
    trajectory_count: 1,
  };
}
