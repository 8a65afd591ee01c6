// modelLog fed piece by piece: the stored rows as written out here (ART's defaults filled in;
// comparing the implementation with itself alone would let a wrong default through), the same
// rows, metrics and answer as an in-memory body, and nothing stored unless the stream ends with `end`.
import { expect, it } from 'vitest';
import type { Db } from '../../src/db/index.ts';
import { modelLog, type ModelLogPiece } from '../../src/models/model-log.ts';
import { describeEachDialect } from '../dialects.ts';
import { createReq, ctx, logReq, modelsOf, storedLog, TRAJECTORY_DEFAULTS } from './model-fixtures.ts';

type Json = Record<string, unknown>;

/** The pieces the HTTP layer hands over for a parsed request. */
function* piecesOf(split: string, groups: Json[]): Generator<ModelLogPiece> {
  for (const [g, group] of groups.entries()) {
    const trajectories = (group.trajectories ?? []) as Json[];
    for (const [t, trajectory] of trajectories.entries()) yield { kind: 'trajectory', group_index: g, trajectory_index: t, trajectory };
    yield { kind: 'group', group_index: g, group: { ...group, ...(group.trajectories ? { trajectories: [] } : {}) } };
  }
  yield { kind: 'end', split };
}

async function* asAsync<T>(items: Iterable<T>, failAfter = Infinity): AsyncGenerator<T> {
  let n = 0;
  for (const item of items) {
    if (n++ >= failAfter) throw new Error('client went away');
    yield item;
  }
}

async function dump(db: Db, logId: string) {
  const { log, groups, trajectories } = await storedLog(db, logId);
  const { id: _id, created_at: _at, ...logRest } = log;
  return {
    log: { ...logRest, metrics: JSON.stringify(log.metrics) },
    groups: groups.map(({ log_id: _l, ...g }) => ({ ...g, data: JSON.stringify(g.data) })),
    trajectories: trajectories.map(({ log_id: _l, ...t }) => ({ ...t, data: JSON.stringify(t.data) })),
  };
}

async function logCount(db: Db, modelId: string): Promise<number> {
  const rows = await db.kysely.selectFrom('trajectory_logs').select('id').where('model_id', '=', modelId).execute();
  const groups = await db.kysely.selectFrom('trajectory_groups').select('log_id').execute();
  const trajectories = await db.kysely.selectFrom('trajectories').select('log_id').execute();
  const ids = new Set(rows.map((r) => r.id));
  return rows.length + groups.filter((g) => ids.has(g.log_id)).length + trajectories.filter((t) => ids.has(t.log_id)).length;
}

const GROUPS: Json[] = [
  {
    trajectories: [
      { reward: 1, metrics: { correct: true, n: 2 } },
      { reward: 0, extra: 'kept' },
    ],
    metrics: { g: 1 },
  },
  { exceptions: [{ type: 'E', message: 'boom' }], metrics: { g: 5 } },
  { metadata: { m: 1 }, trajectories: [{ reward: 0.5, messages_and_choices: [{ role: 'user', content: 'hi' }] }], logs: ['l'] },
  {},
  { trajectories: [{ reward: 3, metrics: { n: 4 } }, { reward: 1 }, { reward: 2 }] },
];

describeEachDialect('models: log trajectories as a stream', (getDb) => {
  for (const limits of [undefined, { maxRows: 2, maxBytes: 1 }]) {
    it(`stores what modelLog stores and answers the same (chunk limits ${JSON.stringify(limits)})`, async () => {
      const db = getDb();
      const models = modelsOf(db);
      const model = await models.modelCreate(createReq({ project: `log-stream-${limits ? 'small' : 'default'}` }), ctx);
      const whole = await models.modelLog(logReq(model.id, 'val', structuredClone(GROUPS)), ctx);
      const streamed = await modelLog(db, { model_id: model.id, pieces: asAsync(piecesOf('val', structuredClone(GROUPS))) }, limits);
      expect(streamed).toEqual({ ...whole, log_id: streamed.log_id });
      expect(JSON.stringify(streamed.metrics)).toBe(JSON.stringify(whole.metrics));
      expect(await dump(db, streamed.log_id)).toEqual(await dump(db, whole.log_id));
    });
  }

  it('stores every trajectory and group with ART defaults filled in, as written out here', async () => {
    const db = getDb();
    const models = modelsOf(db);
    const model = await models.modelCreate(createReq({ project: 'log-stream-written' }), ctx);
    const res = await modelLog(db, { model_id: model.id, pieces: asAsync(piecesOf('val', structuredClone(GROUPS))) });
    const stored = await dump(db, res.log_id);
    const trajectory = (fields: Json) => ({ ...TRAJECTORY_DEFAULTS, ...fields });
    const data = stored.trajectories.map((t) => JSON.parse(t.data) as Json);
    expect(data).toEqual([
      trajectory({ reward: 1, metrics: { correct: true, n: 2 } }),
      trajectory({ reward: 0, extra: 'kept' }),
      trajectory({ reward: 0.5, messages_and_choices: [{ role: 'user', content: 'hi' }] }),
      trajectory({ reward: 3, metrics: { n: 4 } }),
      trajectory({ reward: 1 }),
      trajectory({ reward: 2 }),
    ]);
    expect(stored.trajectories.map((t) => [t.group_index, t.trajectory_index, Number(t.reward)])).toEqual([
      [0, 0, 1],
      [0, 1, 0],
      [2, 0, 0.5],
      [4, 0, 3],
      [4, 1, 1],
      [4, 2, 2],
    ]);
    const group = (fields: Json) => ({ exceptions: [], metadata: {}, metrics: {}, logs: [], ...fields });
    expect(stored.groups.map((g) => JSON.parse(g.data) as Json)).toEqual([
      group({ metrics: { g: 1 } }),
      group({ exceptions: [{ type: 'E', message: 'boom' }], metrics: { g: 5 } }),
      group({ metadata: { m: 1 }, logs: ['l'] }),
      group({}),
      group({}),
    ]);
  });

  it('is also the store method modelLogStream', async () => {
    const models = modelsOf(getDb());
    const model = await models.modelCreate(createReq({ project: 'log-stream-method' }), ctx);
    const res = await models.modelLog({ model_id: model.id, pieces: asAsync(piecesOf('train', [])) }, ctx);
    expect(res).toMatchObject({ step: 0, trajectory_count: 0, metrics: { 'train/reward_std_dev': 0 } });
  });

  it('stores nothing when the stream fails part-way or ends without `end`', async () => {
    const db = getDb();
    const models = modelsOf(db);
    const model = await models.modelCreate(createReq({ project: 'log-stream-atomic' }), ctx);
    const pieces = [...piecesOf('val', structuredClone(GROUPS))];
    for (const failAfter of [1, 3, pieces.length - 1]) {
      await expect(modelLog(db, { model_id: model.id, pieces: asAsync(pieces, failAfter) }, { maxRows: 1, maxBytes: 1 })).rejects.toThrow(
        'client went away',
      );
    }
    await expect(models.modelLog({ model_id: model.id, pieces: asAsync(pieces.slice(0, -1)) }, ctx)).rejects.toThrow(
      /before it was complete/,
    );
    expect(await logCount(db, model.id)).toBe(0);
  });
});
