// ART's serverless client flow replayed against Weft, on both databases: register twice with
// return_existing, the step of an empty checkpoint list, `train` and `val` logs as newest ART
// dumps them (exclude_defaults, Choices with logprobs), a checkpoint, a log at step 1, the metric
// history against values computed by hand, the trajectories paged back with `after`, each log's
// table read through /table/query, delete_checkpoints as ART chooses, another entity's key, the
// training call Weft does not offer, and the model deleted with everything under it.
import { digestOfValue, tableDigest } from '@weft/core';
import { expect, it } from 'vitest';
import { bearerCall } from './bearer-call.ts';
import { describeEachDatabase } from './test-server.ts';

interface Trajectory {
  id: string;
  log_id: string;
  split: string;
  step: number;
  table_digest: string | null;
  row_digest: string | null;
  trajectory: Record<string, unknown> & { group_index: number; trajectory_index: number; reward: number };
}
interface Page<T> {
  object: 'list';
  data: T[];
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
}

const user = { role: 'user', content: 'Change my flight to Friday, booking ZX41Q.' };
// A Choice as openai-python dumps it with exclude_defaults: null sub-fields missing, logprobs kept.
const choiceWithLogprobs = {
  index: 0,
  finish_reason: 'stop',
  message: { role: 'assistant', content: 'Done: ZX41Q moved to Friday.' },
  logprobs: {
    content: [
      { token: 'Done', logprob: -0.0123, bytes: [68, 111, 110, 101], top_logprobs: [] },
      { token: ':', logprob: -1.5e-7, bytes: [58], top_logprobs: [] },
    ],
  },
};
const choiceBare = { index: 0, finish_reason: 'stop', message: { role: 'assistant' } };

// Step 0, `train`: group A rewards [1, 0] (the second's reward is the default, left out), the
// first with metrics {correct: true}; group B reward [0.5] and one exception; group C empty
// (newest ART omits `trajectories`). By hand: reward 1.5/3 = 0.5; exception_rate 1/(3+1) = 0.25;
// reward_std_dev = pstdev([1, 0]) = 0.5 (B has one trajectory); correct = 1 (one has the key).
const trainGroups = [
  {
    trajectories: [
      { messages_and_choices: [user, choiceWithLogprobs], reward: 1, metrics: { correct: true } },
      { messages_and_choices: [user, choiceBare] },
    ],
  },
  {
    trajectories: [{ messages_and_choices: [user, choiceBare], reward: 0.5 }],
    exceptions: [{ type: 'ValueError', message: 'tool failed' }],
  },
  {},
];
// `val`: rewards [0.25, 0.75], turns 2 and 4, group difficulty 3. By hand: reward 0.5,
// exception_rate 0, reward_std_dev = pstdev([0.25, 0.75]) = 0.25, turns 3, group/difficulty 3.
const valGroups = (rewards: [number, number]) => [
  {
    trajectories: [
      { messages_and_choices: [user, choiceBare], reward: rewards[0], metrics: { turns: 2 } },
      { messages_and_choices: [user, choiceWithLogprobs], reward: rewards[1], metrics: { turns: 4 } },
    ],
    metrics: { difficulty: 3 },
  },
];

describeEachDatabase('ART serverless flow', (getServer) => {
  const call = bearerCall(getServer);

  async function allTrajectories(id: string, query: string, limit: number): Promise<Trajectory[]> {
    const seen: Trajectory[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 50; pages++) {
      const r = await call('GET', `/v1/preview/models/${id}/trajectories?limit=${limit}${query}${after ? `&after=${after}` : ''}`);
      expect(r.status).toBe(200);
      const page = r.body as unknown as Page<Trajectory>;
      expect(page.data.length).toBeLessThanOrEqual(limit);
      seen.push(...page.data);
      if (!page.has_more || page.data.length === 0) return seen;
      after = page.last_id;
    }
    throw new Error('paging did not end');
  }

  it('register, log, checkpoint, read back, delete', async () => {
    const register = { entity: null, project: 'flow', name: 'agent-7', base_model: 'OpenPipe/Qwen3-14B-Instruct', return_existing: true };
    const first = await call('POST', '/v1/preview/models', register);
    expect(first).toMatchObject({ status: 200, body: { entity: 'acme', project: 'flow', name: 'agent-7' } });
    const id = first.body.id as string;
    expect((await call('POST', '/v1/preview/models', register)).body.id).toBe(id);
    const latest = (await call('GET', `/v1/preview/models/${id}/checkpoints?limit=1&order=desc`)).body as unknown as Page<{ step: number }>;
    expect(latest.data[0]?.step ?? 0).toBe(0);

    // Step 0.
    const train = await call('POST', `/v1/preview/models/${id}/log`, { model_id: id, split: 'train', trajectory_groups: trainGroups });
    expect(train).toMatchObject({ status: 200, body: { step: 0, trajectory_count: 3 } });
    expect(train.body.metrics).toEqual({
      'train/reward': 0.5,
      'train/exception_rate': 0.25,
      'train/reward_std_dev': 0.5,
      'train/correct': 1,
    });
    const val0 = await call('POST', `/v1/preview/models/${id}/log`, {
      model_id: id,
      split: 'val',
      trajectory_groups: valGroups([0.25, 0.75]),
    });
    expect(val0).toMatchObject({ status: 200, body: { step: 0, trajectory_count: 2 } });

    // The trainer saves step 1; the next log is recorded there, its aggregates added to it.
    expect((await call('POST', `/v1/preview/models/${id}/checkpoints`, { step: 1 })).status).toBe(200);
    const val1 = await call('POST', `/v1/preview/models/${id}/log`, { model_id: id, split: 'val', trajectory_groups: valGroups([1, 1]) });
    expect(val1).toMatchObject({ status: 200, body: { step: 1, trajectory_count: 2 } });

    // The metric history, by step then split.
    const history = (await call('GET', `/v1/preview/models/${id}/metrics`)).body as { data: Array<Record<string, unknown>> };
    expect(history.data).toEqual([
      {
        step: 0,
        split: 'train',
        log_count: 1,
        trajectory_count: 3,
        group_count: 3,
        metrics: { reward: 0.5, exception_rate: 0.25, reward_std_dev: 0.5, correct: 1 },
      },
      {
        step: 0,
        split: 'val',
        log_count: 1,
        trajectory_count: 2,
        group_count: 1,
        metrics: { reward: 0.5, exception_rate: 0, reward_std_dev: 0.25, turns: 3, 'group/difficulty': 3 },
      },
      {
        step: 1,
        split: 'val',
        log_count: 1,
        trajectory_count: 2,
        group_count: 1,
        metrics: { reward: 1, exception_rate: 0, reward_std_dev: 0, turns: 3, 'group/difficulty': 3 },
      },
    ]);

    // Trajectories back, 3 a page (pages cross logs): by step, log, group, position.
    const all = await allTrajectories(id, '', 3);
    expect(all.map((t) => [t.step, t.split, t.trajectory.group_index, t.trajectory.trajectory_index, t.trajectory.reward])).toEqual([
      [0, 'train', 0, 0, 1],
      [0, 'train', 0, 1, 0],
      [0, 'train', 1, 0, 0.5],
      [0, 'val', 0, 0, 0.25],
      [0, 'val', 0, 1, 0.75],
      [1, 'val', 0, 0, 1],
      [1, 'val', 0, 1, 1],
    ]);
    expect(new Set(all.map((t) => t.id)).size).toBe(7);
    // As logged, with ART's defaults filled in; the Choice and its logprobs verbatim.
    expect(all[0]!.trajectory).toEqual({
      group_index: 0,
      trajectory_index: 0,
      messages_and_choices: [user, choiceWithLogprobs],
      reward: 1,
      metrics: { correct: true },
      metadata: {},
      tools: null,
      additional_histories: [],
      initial_policy_version: null,
      final_policy_version: null,
      logs: [],
    });
    expect(all[0]!.log_id).toBe(train.body.log_id);
    expect(all[0]!.table_digest).toBe(train.body.table_digest);
    // Ids are stable, and desc is the exact reverse.
    expect((await allTrajectories(id, '', 100)).map((t) => t.id)).toEqual(all.map((t) => t.id));
    expect((await allTrajectories(id, '&order=desc', 2)).map((t) => t.id)).toEqual(all.map((t) => t.id).reverse());
    expect((await allTrajectories(id, '&split=val', 1)).map((t) => t.id)).toEqual(all.slice(3).map((t) => t.id));
    expect((await allTrajectories(id, '&split=val&step=1', 5)).map((t) => t.id)).toEqual(all.slice(5).map((t) => t.id));
    expect((await call('GET', `/v1/preview/models/${id}/trajectories?after=${train.body.log_id as string}.9.9`)).status).toBe(404);

    // Each log is a content-addressed table: Weave's row digests, the table digest over them.
    const client = getServer().client();
    const trainTable = train.body.table_digest as string;
    const table = await client.POST('/table/query', { body: { project_id: 'acme/flow', digest: trainTable } });
    expect(table.rows.map((r) => r.val)).toEqual(all.slice(0, 3).map((t) => t.trajectory));
    expect(table.rows.map((r) => r.digest)).toEqual(all.slice(0, 3).map((t) => t.row_digest));
    for (const row of table.rows) expect(digestOfValue(row.val)).toBe(row.digest);
    expect(tableDigest(table.rows.map((r) => r.digest))).toBe(trainTable);
    const byReward = await client.POST('/table/query', {
      body: { project_id: 'acme/flow', digest: trainTable, sort_by: [{ field: 'reward', order: 'desc' }] },
    });
    expect(byReward.rows.map((r) => (r.val as { reward: number }).reward)).toEqual([1, 0.5, 0]);
    const byTurns = await client.POST('/table/query', {
      body: {
        project_id: 'acme/flow',
        digest: val0.body.table_digest as string,
        sort_by: [{ field: 'metrics.turns', order: 'desc' }],
        limit: 1,
      },
    });
    expect(byTurns.rows.map((r) => r.original_index)).toEqual([1]);
    // The same batch sent again is a new log (ART's user re-run), with the same table.
    const again = await call('POST', `/v1/preview/models/${id}/log`, { split: 'train', trajectory_groups: trainGroups });
    expect(again.body.log_id).not.toBe(train.body.log_id);
    expect(again.body.table_digest).toBe(trainTable);

    // delete_checkpoints("val/reward"): keep the latest step and the best; the log made step 1's val/reward 1.
    expect((await call('POST', `/v1/preview/models/${id}/checkpoints`, { step: 2, metrics: { 'val/reward': 0.3 } })).status).toBe(200);
    expect((await call('POST', `/v1/preview/models/${id}/checkpoints`, { step: 3 })).status).toBe(200);
    const checkpoints = (await call('GET', `/v1/preview/models/${id}/checkpoints?limit=100`)).body as unknown as Page<{
      step: number;
      metrics: Record<string, number>;
    }>;
    const score = (c: { metrics: Record<string, number> }) => c.metrics['val/reward'] ?? -Infinity;
    const best = checkpoints.data.reduce((a, b) => (score(b) > score(a) ? b : a));
    const keep = new Set([best.step, Math.max(...checkpoints.data.map((c) => c.step))]);
    expect([...keep].sort()).toEqual([1, 3]);
    const steps = checkpoints.data.map((c) => c.step).filter((s) => !keep.has(s));
    expect((await call('DELETE', `/v1/preview/models/${id}/checkpoints`, { steps })).body).toEqual({
      deleted_count: 1,
      not_found_steps: [],
    });

    // Another entity's key sees nothing.
    const bob = getServer().bobKey;
    for (const path of ['trajectories', 'metrics', 'checkpoints']) {
      const r = await call('GET', `/v1/preview/models/${id}/${path}`, undefined, bob);
      expect(r.status).toBe(403);
      expect(r.body).not.toHaveProperty('data');
    }
    const bobTable = getServer()
      .client('bob')
      .POST('/table/query', { body: { project_id: 'acme/flow', digest: trainTable } });
    await expect(bobTable).rejects.toMatchObject({ status: 403 });

    // model.train(): Weft does not train, and says so.
    const job = await call('POST', '/v1/preview/training-jobs', {
      model_id: id,
      trajectory_groups: trainGroups,
      experimental_config: null,
    });
    expect(job.status).toBe(501);
    expect(job.body).toMatchObject({ error_type: 'NotImplemented', reason: expect.stringContaining('/checkpoints') });

    // Delete: the model and everything under it.
    const deleted = await call('DELETE', `/v1/preview/models/${id}`);
    expect(deleted.body).toMatchObject({ model_id: id, deleted_checkpoints: 2, deleted_logs: 4 });
    for (const path of ['', '/trajectories', '/metrics', '/checkpoints']) {
      expect((await call('GET', `/v1/preview/models/${id}${path}`)).status).toBe(404);
    }
    const fresh = await call('POST', '/v1/preview/models', register);
    expect(fresh.body.id).not.toBe(id);
    expect((await call('GET', `/v1/preview/models/${fresh.body.id as string}/trajectories`)).body).toEqual({
      object: 'list',
      data: [],
      first_id: null,
      last_id: null,
      has_more: false,
    });
  });

  it('refuses a trajectory carrying the stored row position keys, storing nothing', async () => {
    const model = await call('POST', '/v1/preview/models', { project: 'flow', name: 'reserved', base_model: 'b', return_existing: true });
    const id = model.body.id as string;
    const r = await call('POST', `/v1/preview/models/${id}/log`, {
      split: 'val',
      trajectory_groups: [{ trajectories: [{ reward: 1 }, { reward: 0, group_index: 4 }] }],
    });
    expect(r.status).toBe(422);
    expect((r.body.detail as Array<{ loc: unknown[] }>)[0]!.loc).toEqual([
      'body',
      'trajectory_groups',
      '0',
      'trajectories',
      '1',
      'group_index',
    ]);
    expect(((await call('GET', `/v1/preview/models/${id}/trajectories`)).body as unknown as Page<unknown>).data).toEqual([]);
  });

  it('answers the training call 501 whatever it sends: no key, a wrong key, a body that is not JSON', async () => {
    const attempts: Array<Record<string, string>> = [{}, { authorization: 'Bearer wrong' }, { 'content-type': 'text/plain' }];
    for (const headers of attempts) {
      const r = await fetch(`${getServer().url}/v1/preview/training-jobs`, { method: 'POST', headers, body: 'not json' });
      expect(r.status).toBe(501);
      expect(await r.json()).toMatchObject({ error_type: 'NotImplemented' });
    }
  });
});
