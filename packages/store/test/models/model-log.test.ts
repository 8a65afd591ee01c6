// POST /v1/preview/models/{id}/log: defaults, aggregate metrics (art-trajectories.md §6), and
// storing the whole request atomically.
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import type { Db } from '../../src/db/index.ts';
import { modelLog } from '../../src/models/model-log.ts';
import { describeEachDialect } from '../dialects.ts';
import { createReq, ctx, logReq, modelsOf, storedLog, TRAJECTORY_DEFAULTS } from './model-fixtures.ts';

async function countRows(db: Db, modelId: string) {
  const logs = await db.kysely.selectFrom('trajectory_logs').select('id').where('model_id', '=', modelId).execute();
  const ids = logs.map((l) => l.id);
  if (ids.length === 0) return { logs: 0, groups: 0, trajectories: 0 };
  const n = async (table: 'trajectory_groups' | 'trajectories') =>
    Number(
      (
        await db.kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('log_id', 'in', ids)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { logs: ids.length, groups: await n('trajectory_groups'), trajectories: await n('trajectories') };
}

describeEachDialect('models: log trajectories', (getDb) => {
  it('computes the worked example of art-trajectories.md §6 exactly', async () => {
    const models = modelsOf(getDb());
    const model = await models.modelCreate(createReq({ project: 'log-example' }), ctx);
    const res = await models.modelLog(
      logReq(model.id, 'val', [
        { trajectories: [{ reward: 1, metrics: { correct: true } }, { reward: 0 }] },
        { trajectories: [{ reward: 0.5 }], exceptions: [{ type: "<class 'ValueError'>", message: 'boom', traceback: '…' }] },
      ]),
      ctx,
    );
    expect(res).toEqual({
      log_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      step: 0,
      trajectory_count: 3,
      table_digest: expect.stringMatching(/^[0-9a-f]{64}$/),
      metrics: { 'val/reward': 0.5, 'val/exception_rate': 0.25, 'val/correct': 1, 'val/reward_std_dev': 0.5 },
    });
  });

  it('averages metrics over the trajectories or groups that have them, booleans as 0/1', async () => {
    const models = modelsOf(getDb());
    const model = await models.modelCreate(createReq({ project: 'log-metrics' }), ctx);
    const { metrics } = await models.modelLog(
      logReq(model.id, 'train', [
        {
          metrics: { difficulty: 2, solved: true },
          trajectories: [
            { reward: 1, metrics: { turns: 3, ok: true } },
            { reward: 2, metrics: { turns: 5, ok: false } },
            { reward: 6, metrics: { ok: false } },
          ],
        },
        { metrics: { difficulty: 4 }, trajectories: [{ reward: -1 }, { reward: 1, metrics: { turns: 10 } }] },
        // Without trajectories a group's metrics do not count; its exceptions do.
        { metrics: { difficulty: 100, solved: false }, exceptions: [{}, {}] },
      ]),
      ctx,
    );
    // Group 0 rewards [1, 2, 6]: mean 3, population std dev sqrt(14/3); group 1 [-1, 1]: 1.
    expect(metrics).toEqual({
      'train/reward': 9 / 5,
      'train/exception_rate': 2 / 7,
      'train/turns': 6,
      'train/ok': 1 / 3,
      'train/reward_std_dev': (Math.sqrt(14 / 3) + 1) / 2,
      'train/group/difficulty': 3,
      'train/group/solved': 1,
    });
  });

  it('answers the metrics of an empty request: no reward, std dev 0', async () => {
    const models = modelsOf(getDb());
    const model = await models.modelCreate(createReq({ project: 'log-empty' }), ctx);
    expect((await models.modelLog(logReq(model.id, 'val', []), ctx)).metrics).toEqual({ 'val/reward_std_dev': 0 });
    expect((await models.modelLog(logReq(model.id, 'val', [{}, { trajectories: [] }]), ctx)).metrics).toEqual({ 'val/reward_std_dev': 0 });
    expect((await models.modelLog(logReq(model.id, 'val', [{ exceptions: [{}] }]), ctx)).metrics).toEqual({
      'val/exception_rate': 1,
      'val/reward_std_dev': 0,
    });
  });

  it('drops values that are not finite', async () => {
    const models = modelsOf(getDb());
    const model = await models.modelCreate(createReq({ project: 'log-finite' }), ctx);
    // The reward sum overflows to Infinity (as it would in ART's sum()); JSON has no Infinity.
    const { metrics } = await models.modelLog(logReq(model.id, 'val', [{ trajectories: [{ reward: 1.7e308 }, { reward: 1.7e308 }] }]), ctx);
    expect(metrics).toEqual({ 'val/exception_rate': 0 });
  });

  it('applies the defaults the client left out and keeps unknown keys', async () => {
    const db = getDb();
    const models = modelsOf(db);
    const model = await models.modelCreate(createReq({ project: 'log-defaults' }), ctx);
    const choice = { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Hi' } };
    const res = await models.modelLog(
      {
        ...logReq(model.id, 'val', [
          // Newest ART with exclude_defaults=True: almost nothing is sent.
          { trajectories: [{}, { messages_and_choices: [{ role: 'user', content: 'Hello' }, choice], exchanges: { raw: [1] } }] },
          // Older ART: every field, with nulls.
          {
            trajectories: [
              {
                messages_and_choices: [],
                tools: [{ type: 'function', function: { name: 'f', x_extra: 1 } }],
                additional_histories: [{ messages_and_choices: [choice] }],
                reward: 1,
                initial_policy_version: 3,
                final_policy_version: null,
                metrics: {},
                metadata: { scenario: 's1' },
                logs: ['l'],
                start_time: '2025-06-03T09:41:27.512Z',
              },
            ],
            metadata: { g: 1 },
            custom_group_key: 'kept',
          },
        ]),
        // ART also sends model_id in the body; ignored.
      },
      ctx,
    );
    expect(res.trajectory_count).toBe(3);
    const { log, groups, trajectories } = await storedLog(db, res.log_id);
    expect(log).toMatchObject({
      model_id: model.id,
      project_id: 'acme/log-defaults',
      split: 'val',
      step: 0,
      group_count: 2,
      trajectory_count: 3,
      metrics: res.metrics,
    });
    expect(groups.map((g) => g.data)).toEqual([
      { exceptions: [], metadata: {}, metrics: {}, logs: [] },
      { metadata: { g: 1 }, custom_group_key: 'kept', exceptions: [], metrics: {}, logs: [] },
    ]);
    const defaults = TRAJECTORY_DEFAULTS;
    expect(trajectories.map((t) => [t.group_index, t.trajectory_index, t.reward])).toEqual([
      [0, 0, 0],
      [0, 1, 0],
      [1, 0, 1],
    ]);
    expect(trajectories[0]?.data).toEqual(defaults);
    expect(trajectories[1]?.data).toEqual({
      ...defaults,
      messages_and_choices: [{ role: 'user', content: 'Hello' }, choice],
      exchanges: { raw: [1] },
    });
    expect(trajectories[2]?.data).toEqual({
      ...defaults,
      tools: [{ type: 'function', function: { name: 'f', x_extra: 1 } }],
      additional_histories: [{ messages_and_choices: [choice], tools: null }],
      reward: 1,
      initial_policy_version: 3,
      metadata: { scenario: 's1' },
      logs: ['l'],
      start_time: '2025-06-03T09:41:27.512Z',
    });
  });

  it('stores a resent request again as a new log', async () => {
    const db = getDb();
    const models = modelsOf(db);
    const model = await models.modelCreate(createReq({ project: 'log-twice' }), ctx);
    const req = logReq(model.id, 'val', [{ trajectories: [{ reward: 1 }, { reward: 0 }] }]);
    const first = await models.modelLog(req, ctx);
    const second = await models.modelLog(req, ctx);
    expect(second.log_id).not.toBe(first.log_id);
    expect(second.metrics).toEqual(first.metrics);
    expect(await countRows(db, model.id)).toEqual({ logs: 2, groups: 2, trajectories: 4 });
  });

  it('answers 404 for an unknown model and stores nothing', async () => {
    const db = getDb();
    const models = modelsOf(db);
    const model_id = '0b7e2a1c-0000-4000-8000-00000000dead';
    await expect(models.modelLog(logReq(model_id, 'val', [{ trajectories: [{ reward: 1 }] }]), ctx)).rejects.toMatchObject({
      status: 404,
      errorType: 'NotFoundError',
    });
    expect(await countRows(db, model_id)).toEqual({ logs: 0, groups: 0, trajectories: 0 });
  });

  it('inserts in chunks of rows and of bytes, all rows in order', async () => {
    const db = getDb();
    const models = modelsOf(db);
    const model = await models.modelCreate(createReq({ project: 'log-chunks' }), ctx);
    const groups = Array.from({ length: 7 }, (_, g) => ({
      metadata: { g },
      trajectories: Array.from({ length: 5 }, (_, t) => ({ reward: g * 10 + t, logs: ['x'.repeat(100 * t)] })),
    }));
    // 3 rows or ~250 bytes per statement: many statements for both tables.
    const res = await modelLog(db, logReq(model.id, 'val', groups), { maxRows: 3, maxBytes: 250 });
    const { groups: storedGroups, trajectories } = await storedLog(db, res.log_id);
    expect(storedGroups.map((g) => (g.data as { metadata: unknown }).metadata)).toEqual(groups.map((g) => g.metadata));
    expect(trajectories.map((t) => t.reward)).toEqual(groups.flatMap((g) => g.trajectories.map((t) => t.reward)));
    expect(trajectories.map((t) => (t.data as { logs: string[] }).logs[0]?.length)).toEqual(groups.flatMap(() => [0, 100, 200, 300, 400]));
  });

  it('stores nothing when a write fails mid-way', async () => {
    const db = getDb();
    const models = modelsOf(db);
    const model = await models.modelCreate(createReq({ project: 'log-atomic' }), ctx);
    // A database trigger rejects the trajectory with reward -777: by then the log row, every group
    // and the earlier trajectory chunks have been inserted in the transaction.
    if (db.dialect === 'sqlite') {
      await sql`create trigger fail_reward before insert on trajectories when new.reward = -777
        begin select raise(abort, 'forced failure'); end`.execute(db.kysely);
    } else {
      await sql`create function fail_reward() returns trigger language plpgsql as $$
        begin if new.reward = -777 then raise exception 'forced failure'; end if; return new; end $$`.execute(db.kysely);
      await sql`create trigger fail_reward before insert on trajectories for each row execute function fail_reward()`.execute(db.kysely);
    }
    try {
      const groups = Array.from({ length: 4 }, (_, g) => ({
        trajectories: Array.from({ length: 4 }, (_, t) => ({ reward: g === 3 && t === 2 ? -777 : t })),
      }));
      await expect(modelLog(db, logReq(model.id, 'val', groups), { maxRows: 2, maxBytes: 1 << 20 })).rejects.toThrow(/forced failure/);
      expect(await countRows(db, model.id)).toEqual({ logs: 0, groups: 0, trajectories: 0 });
      const orphans = await db.kysely
        .selectFrom('trajectory_groups')
        .select('log_id')
        .where('project_id', '=', 'acme/log-atomic')
        .execute();
      expect(orphans).toEqual([]);

      // The same request without the poisoned reward is stored whole.
      groups[3]!.trajectories[2]!.reward = 2;
      const res = await modelLog(db, logReq(model.id, 'val', groups), { maxRows: 2, maxBytes: 1 << 20 });
      expect(res.trajectory_count).toBe(16);
      expect(await countRows(db, model.id)).toEqual({ logs: 1, groups: 4, trajectories: 16 });
    } finally {
      await sql`drop trigger fail_reward ${sql.raw(db.dialect === 'postgres' ? 'on trajectories' : '')}`.execute(db.kysely);
      if (db.dialect === 'postgres') await sql`drop function fail_reward()`.execute(db.kysely);
    }
  });

  it('rejects a reward or metric that is not a number before writing', async () => {
    const db = getDb();
    const models = modelsOf(db);
    const model = await models.modelCreate(createReq({ project: 'log-invalid' }), ctx);
    await expect(
      models.modelLog(logReq(model.id, 'val', [{ trajectories: [{ reward: 1 }, { reward: 'abc' }] }]), ctx),
    ).rejects.toMatchObject({
      status: 400,
      message: 'trajectory_groups[0].trajectories[1].reward must be a number',
    });
    await expect(models.modelLog(logReq(model.id, 'val', [{ trajectories: [{ metrics: { m: 'x' } }] }]), ctx)).rejects.toMatchObject({
      status: 400,
    });
    expect(await countRows(db, model.id)).toEqual({ logs: 0, groups: 0, trajectories: 0 });
  });
});
