// ART's checkpoint calls as its serverless client makes them: the current step from
// `limit=1&order=desc` (0 with none), logs recorded at the latest checkpoint's step with their
// aggregates added to it, cursor paging with `after` while `has_more`, delete_checkpoints keeping
// the latest and the best by `val/reward`, and another entity's key refused.
import { expect, it } from 'vitest';
import { bearerCall } from './bearer-call.ts';
import { describeEachDatabase } from './test-server.ts';

interface Checkpoint {
  id: string;
  step: number;
  metrics: Record<string, number>;
}
interface Page {
  object: string;
  data: Checkpoint[];
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
}

describeEachDatabase('model checkpoints', (getServer) => {
  const call = bearerCall(getServer);
  const group = (rewards: number[]) => ({ trajectories: rewards.map((reward) => ({ messages_and_choices: [], reward })) });
  let counter = 0;
  async function register() {
    const r = await call('POST', '/v1/preview/models', {
      entity: 'acme',
      project: 'rl',
      name: `agent-${++counter}`,
      base_model: 'b',
      return_existing: true,
    });
    expect(r.status).toBe(200);
    return r.body.id as string;
  }
  // ART's _get_step().
  async function currentStep(id: string) {
    const page = (await call('GET', `/v1/preview/models/${id}/checkpoints?limit=1&order=desc`)).body as unknown as Page;
    return page.data[0]?.step ?? 0;
  }
  // What ART's AsyncCursorPage iteration does: `after` = the last id while has_more.
  async function allSteps(id: string, order: 'asc' | 'desc', limit: number) {
    const steps: number[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 20; pages++) {
      const query: string = `limit=${limit}&order=${order}${after ? `&after=${after}` : ''}`;
      const r = await call('GET', `/v1/preview/models/${id}/checkpoints?${query}`);
      expect(r.status).toBe(200);
      const page = r.body as unknown as Page;
      expect(page.object).toBe('list');
      steps.push(...page.data.map((c) => c.step));
      if (!page.has_more || page.data.length === 0) return steps;
      after = page.last_id;
    }
    throw new Error('paging did not end');
  }

  it('records logs at the latest checkpoint step and adds their aggregates to it', async () => {
    const id = await register();
    const empty = (await call('GET', `/v1/preview/models/${id}/checkpoints?limit=1&order=desc`)).body;
    expect(empty).toEqual({ object: 'list', data: [], first_id: null, last_id: null, has_more: false });
    expect(await currentStep(id)).toBe(0);
    const first = await call('POST', `/v1/preview/models/${id}/log`, { split: 'train', trajectory_groups: [group([1, 0])] });
    expect(first.body).toMatchObject({ step: 0 });

    const created = await call('POST', `/v1/preview/models/${id}/checkpoints`, { step: 1, metrics: { 'train/loss': 0.5 } });
    expect(created).toMatchObject({ status: 200, body: { step: 1, metrics: { 'train/loss': 0.5 } } });
    // A retry with the same metrics is the same checkpoint; other metrics are a conflict.
    expect((await call('POST', `/v1/preview/models/${id}/checkpoints`, { step: 1, metrics: { 'train/loss': 0.5 } })).body.id).toBe(
      created.body.id,
    );
    expect((await call('POST', `/v1/preview/models/${id}/checkpoints`, { step: 1, metrics: { 'train/loss': 0.7 } })).status).toBe(409);
    // A field Weft would not honour is refused, naming it.
    const extra = await call('POST', `/v1/preview/models/${id}/checkpoints`, { step: 2, path: '/ckpt/2' });
    expect(extra.status).toBe(422);
    expect(extra.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'path'] })]);
    expect(await currentStep(id)).toBe(1);

    // val: rewards 1 and 0 in one group, 0.5 alone in another (the reference's worked example).
    const val = await call('POST', `/v1/preview/models/${id}/log`, { split: 'val', trajectory_groups: [group([1, 0]), group([0.5])] });
    expect(val.body).toMatchObject({ step: 1, metrics: { 'val/reward': 0.5, 'val/reward_std_dev': 0.5 } });
    const latest = ((await call('GET', `/v1/preview/models/${id}/checkpoints?limit=1&order=desc`)).body as unknown as Page).data[0]!;
    expect(latest.metrics).toEqual({ 'train/loss': 0.5, 'val/reward': 0.5, 'val/reward_std_dev': 0.5, 'val/exception_rate': 0 });
  });

  it('pages with after while has_more, in both orders, and deletes as delete_checkpoints does', async () => {
    const id = await register();
    const rewards: Record<number, number> = { 1: 0.2, 2: 0.9, 3: 0.4, 4: 0.1, 5: 0.3 };
    for (const [step, reward] of Object.entries(rewards)) {
      expect(
        (await call('POST', `/v1/preview/models/${id}/checkpoints`, { step: Number(step), metrics: { 'val/reward': reward } })).status,
      ).toBe(200);
    }
    expect(await allSteps(id, 'asc', 2)).toEqual([1, 2, 3, 4, 5]);
    expect(await allSteps(id, 'desc', 2)).toEqual([5, 4, 3, 2, 1]);
    expect(await allSteps(id, 'asc', 100)).toEqual([1, 2, 3, 4, 5]);

    // ART keeps the latest step and the best by val/reward, and deletes the rest.
    const pages = await call('GET', `/v1/preview/models/${id}/checkpoints?limit=100`);
    const all = (pages.body as unknown as Page).data;
    const latest = Math.max(...all.map((c) => c.step));
    const best = all.reduce((a, b) => ((b.metrics['val/reward'] ?? -Infinity) > (a.metrics['val/reward'] ?? -Infinity) ? b : a)).step;
    const doomed = all.map((c) => c.step).filter((s) => s !== latest && s !== best);
    const deleted = await call('DELETE', `/v1/preview/models/${id}/checkpoints`, { steps: [...doomed, 99] });
    expect(deleted).toEqual({ status: 200, body: { deleted_count: 3, not_found_steps: [99] } });
    expect(await allSteps(id, 'asc', 20)).toEqual([2, 5]);
    expect(await currentStep(id)).toBe(5);

    const unknownAfter = await call('GET', `/v1/preview/models/${id}/checkpoints?after=${all[0]!.id}`);
    expect(unknownAfter.status).toBe(404);
  });

  it("refuses another entity's key and says how to create a model that does not exist", async () => {
    const id = await register();
    const { bobKey } = getServer();
    expect((await call('GET', `/v1/preview/models/${id}/checkpoints`, undefined, bobKey)).status).toBe(403);
    expect((await call('POST', `/v1/preview/models/${id}/checkpoints`, { step: 1 }, bobKey)).status).toBe(403);
    expect((await call('DELETE', `/v1/preview/models/${id}/checkpoints`, { steps: [1] }, bobKey)).status).toBe(403);
    expect(await currentStep(id)).toBe(0);

    const missing = await call('POST', '/v1/preview/models/no-such-model/log', { split: 'val', trajectory_groups: [group([1])] });
    expect(missing.status).toBe(404);
    expect(missing.body.reason).toMatch(/POST \/v1\/preview\/models/);
  });
});
