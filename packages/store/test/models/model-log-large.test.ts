// A /log body of realistic worst-case size: 8 groups × 8 trajectories × 20 messages, every
// assistant turn with token logprobs, about 64 MB of JSON. It must be stored whole (several
// chunked statements) and read back unchanged.
import { expect, it } from 'vitest';
import { readJson } from '../../src/db/index.ts';
import { normaliseTrajectory } from '../../src/models/normalise-trajectories.ts';
import { describeEachDialect } from '../dialects.ts';
import { createReq, ctx, logReq, modelsOf } from './model-fixtures.ts';

const TOKENS_PER_CHOICE = 290;

function tokenLogprob(i: number) {
  const alt = (k: number) => ({ token: `tok${i}_${k}`, logprob: -0.1 * k - i / 1000, bytes: [116, 111, 107] });
  return { token: `tok${i}`, logprob: -i / 1000, bytes: [116, 111, 107], top_logprobs: [0, 1, 2, 3, 4].map(alt) };
}

// Shared by every choice: the parsed body stays small, its JSON text is the full size.
const LOGPROBS = { content: Array.from({ length: TOKENS_PER_CHOICE }, (_, i) => tokenLogprob(i)), refusal: null };

function trajectory(g: number, t: number) {
  const messages = Array.from({ length: 20 }, (_, m) =>
    m % 2 === 0
      ? { role: 'user', content: `Question ${g}.${t}.${m}` }
      : { index: 0, finish_reason: 'stop', logprobs: LOGPROBS, message: { role: 'assistant', content: `Answer ${g}.${t}.${m}` } },
  );
  return { messages_and_choices: messages, reward: (g * 8 + t) / 64, metrics: { correct: t % 2 === 0 } };
}

describeEachDialect('models: log a 64 MB request', (getDb) => {
  it('stores every trajectory of a maximal request', async () => {
    const db = getDb();
    const models = modelsOf(db);
    const model = await models.modelCreate(createReq({ project: 'log-large' }), ctx);
    const groups = Array.from({ length: 8 }, (_, g) => ({ trajectories: Array.from({ length: 8 }, (_, t) => trajectory(g, t)) }));
    const bodyBytes = JSON.stringify(groups).length;
    expect(bodyBytes).toBeGreaterThan(60 * 1024 * 1024);

    const res = await models.modelLog(logReq(model.id, 'train', groups), ctx);
    expect(res.trajectory_count).toBe(64);
    expect(res.metrics['train/correct']).toBe(0.5);
    expect(res.metrics['train/reward']).toBeCloseTo(63 / 128, 15);

    const rows = await db.kysely
      .selectFrom('trajectories')
      .select(['group_index', 'trajectory_index', 'reward'])
      .where('log_id', '=', res.log_id)
      .orderBy('group_index')
      .orderBy('trajectory_index')
      .execute();
    expect(rows.map((r) => [r.group_index, r.trajectory_index])).toEqual(
      groups.flatMap((_, g) => Array.from({ length: 8 }, (_, t) => [g, t])),
    );
    // The content is the trajectory's row of the log's table, its position added.
    const last = await db.kysely
      .selectFrom('trajectories as t')
      .innerJoin('rows as r', (join) => join.onRef('r.project_id', '=', 't.project_id').onRef('r.digest', '=', 't.row_digest'))
      .select('r.val')
      .where('t.log_id', '=', res.log_id)
      .where('t.group_index', '=', 7)
      .where('t.trajectory_index', '=', 7)
      .executeTakeFirstOrThrow();
    // Compared as JSON: -0 in the fixture is 0 once serialised.
    const expected = { ...normaliseTrajectory(trajectory(7, 7)), group_index: 7, trajectory_index: 7 };
    expect(readJson(db, last.val)).toEqual(JSON.parse(JSON.stringify(expected)));
  }, 120_000);
});
