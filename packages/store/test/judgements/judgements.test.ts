// LLM-as-judge's rows, on both databases: calls/score queues calls × scorers or nothing, the
// judges' claims never hand one judgement to two judges, a lapsed claim is taken over and its old
// holder cannot settle it, and a monitor's step queues a call once however often it is taken.
import { expect, it } from 'vitest';
import { loadCatalogue } from '@weft/core';
import { createStore } from '../../src/create-store.ts';
import { claimJudgements, liveMonitors, monitorCursor, recordMonitorStep, settleJudgement } from '../../src/judgements/index.ts';
import { describeEachDialect } from '../dialects.ts';

const catalogue = await loadCatalogue();
// Each test its own project: the database is shared by the tests of a dialect.
let P = '';
let n = 0;
const ctx = { user: 'alice' };

const scorerVal = {
  _type: 'LLMAsAJudgeScorer',
  _class_name: 'LLMAsAJudgeScorer',
  _bases: ['Scorer', 'Object', 'BaseModel'],
  model: { llm_model_id: 'judge', default_params: { response_format: 'json' } },
  scoring_prompt: 'Grade {output}',
};

describeEachDialect('judgements', (getDb) => {
  async function setup() {
    P = `acme/judges-${n++}`;
    const db = getDb();
    const store = createStore({ db, catalogue });
    const obj = async (object_id: string, val: Record<string, unknown>) =>
      `weave:///${P}/object/${object_id}:${(await store.objCreate({ obj: { project_id: P, object_id, val } }, { ...ctx, source: undefined })).digest}`;
    const call = async (id: string) => {
      await store.callStart(
        {
          start: {
            project_id: P,
            id,
            trace_id: id,
            op_name: 'answer',
            started_at: new Date().toISOString(),
            attributes: {},
            inputs: { q: id },
          },
        },
        ctx,
      );
      return id;
    };
    return { db, store, obj, call };
  }

  it('calls/score queues every call × scorer once per request, and nothing when one item is bad', async () => {
    const { db, store, obj, call } = await setup();
    const judge = await obj('helpfulness', scorerVal);
    const other = await obj('tone', scorerVal);
    const plain = await obj('notes', { text: 'not a scorer' });
    const [c1, c2] = [await call('c1'), await call('c2')];

    await expect(store.callsScore({ project_id: P, call_ids: [c1], scorer_refs: [judge, plain] }, ctx)).rejects.toMatchObject({
      status: 422,
      detail: [{ loc: ['body', 'scorer_refs', '1'], msg: expect.stringMatching(/not an LLMAsAJudgeScorer/) as string }],
    });
    await expect(store.callsScore({ project_id: P, call_ids: [c1, 'nope'], scorer_refs: [judge] }, ctx)).rejects.toMatchObject({
      status: 422,
      detail: [{ loc: ['body', 'call_ids', '1'] }],
    });
    await expect(
      store.callsScore({ project_id: P, call_ids: [c1], scorer_refs: [`weave:///acme/elsewhere/object/helpfulness:latest`] }, ctx),
    ).rejects.toMatchObject({ status: 422, detail: [{ loc: ['body', 'scorer_refs', '0'] }] });
    // Bounded per request: distinct calls × scorers at most 10,000.
    const many = Array.from({ length: 5001 }, (_, i) => `c-${i}`);
    await expect(store.callsScore({ project_id: P, call_ids: many, scorer_refs: [judge, other] }, ctx)).rejects.toMatchObject({
      status: 422,
      detail: [{ loc: ['body', 'call_ids'], msg: expect.stringMatching(/10000 judgements per request/) as string }],
    });
    expect((await store.judgementsQuery({ project_id: P }, ctx)).judgements).toEqual([]);

    // A call named twice is judged once per scorer; a second request judges again.
    expect(await store.callsScore({ project_id: P, call_ids: [c1, c2, c1], scorer_refs: [judge, other] }, ctx)).toEqual({ queued: 4 });
    expect(await store.callsScore({ project_id: P, call_ids: [c1], scorer_refs: [judge] }, ctx)).toEqual({ queued: 1 });
    const all = (await store.judgementsQuery({ project_id: P }, ctx)).judgements;
    expect(all).toHaveLength(5);
    expect(all.every((j) => j.state === 'queued' && j.attempts === 0 && j.monitor_ref === null && j.cost_usd === null)).toBe(true);
    expect(new Set(all.map((j) => j.feedback_id)).size).toBe(5);
    expect((await store.judgementsQuery({ project_id: P, scorer_ref: other, call_ids: [c2] }, ctx)).judgements).toHaveLength(1);

    // Two judges claiming at once share the work; nobody gets a judgement twice.
    const [a, b] = await Promise.all([
      claimJudgements(db, { limit: 3, leaseMs: 60_000 }),
      claimJudgements(db, { limit: 3, leaseMs: 60_000 }),
    ]);
    const ids = [...a, ...b].map((j) => j.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThanOrEqual(3);

    const [first, second] = a.length >= 2 ? a : [...a, ...b];
    expect(await settleJudgement(db, first!, { state: 'done', judge_call_id: 'j1', cost_usd: '0.000125' })).toBe(true);
    // Costs add exactly over attempts: a retry, then a failure.
    expect(
      await settleJudgement(db, second!, {
        state: 'queued',
        due_at: new Date(0),
        error: 'upstream 503',
        judge_call_id: 'j2',
        cost_usd: '0.1',
      }),
    ).toBe(true);
    const [again] = (await claimJudgements(db, { limit: 10, leaseMs: 60_000 })).filter((j) => j.id === second!.id);
    expect(again?.attempts).toBe(2);
    expect(await settleJudgement(db, again!, { state: 'failed', error: 'bad answer', judge_call_id: 'j3', cost_usd: '0.2' })).toBe(true);
    const failed = (await store.judgementsQuery({ project_id: P, states: ['failed'] }, ctx)).judgements;
    expect(failed).toMatchObject([{ id: second!.id, cost_usd: '0.3', error: 'bad answer', judge_call_id: 'j3', attempts: 2 }]);

    const stats = (await store.judgementsStats({ project_id: P }, ctx)).groups;
    const helpful = stats.find((g) => g.scorer_ref === judge)!;
    const tone = stats.find((g) => g.scorer_ref === other)!;
    expect(stats.every((g) => g.monitor === null)).toBe(true);
    expect(helpful.done + tone.done).toBe(1);
    expect(helpful.failed + tone.failed).toBe(1);
    expect(helpful.queued + helpful.running + helpful.done + helpful.failed).toBe(3);
    expect(helpful.cost_usd + tone.cost_usd).toBeCloseTo(0.300125, 9);
  });

  it('a lapsed claim is taken over; its first holder can no longer settle it; waiting is not an attempt', async () => {
    const { db, store, obj, call } = await setup();
    const judge = await obj('lapse', scorerVal);
    await store.callsScore({ project_id: P, call_ids: [await call('c9')], scorer_refs: [judge] }, ctx);
    const t0 = new Date();
    const [held] = await claimJudgements(db, { limit: 1, leaseMs: 1_000, now: t0 });
    expect(await claimJudgements(db, { limit: 1, leaseMs: 1_000, now: new Date(t0.getTime() + 500) })).toEqual([]);
    const [taken] = await claimJudgements(db, { limit: 1, leaseMs: 1_000, now: new Date(t0.getTime() + 2_000) });
    expect(taken).toMatchObject({ id: held!.id, attempts: 2 });
    expect(await settleJudgement(db, held!, { state: 'done', judge_call_id: 'late', cost_usd: null })).toBe(false);
    expect(await settleJudgement(db, taken!, { state: 'waiting', due_at: new Date(t0.getTime() + 3_000) })).toBe(true);
    const [row] = (await store.judgementsQuery({ project_id: P, call_ids: ['c9'] }, ctx)).judgements;
    expect(row).toMatchObject({ state: 'queued', attempts: 1, judge_call_id: null });
  });

  it("a monitor's step queues a sampled call once, moves its cursor, and reads only live active versions", async () => {
    const { db, store, obj } = await setup();
    const judge = await obj('m-judge', scorerVal);
    const monitor = (active: boolean) => ({
      _type: 'Monitor',
      _class_name: 'Monitor',
      _bases: ['Object', 'BaseModel'],
      sampling_rate: 0.5,
      scorers: [judge],
      call_filter: { op_names: [], query: null },
      active,
    });
    await obj('quality', monitor(false));
    const ref = await obj('quality', monitor(true));
    await obj('not-a-monitor', { sampling_rate: 1 });
    const lives = (await liveMonitors(db)).filter((m) => m.project_id === P);
    expect(lives.map((m) => [m.name, m.ref])).toEqual([['quality', ref]]);
    const live = lives[0]!;
    expect(live.monitor).toMatchObject({ active: true, sampling_rate: 0.5, scorers: [judge] });

    expect(await monitorCursor(db, P, 'quality')).toBeUndefined();
    const step = { monitor: live, callIds: ['a', 'b'], scorers: [judge], cursor: '2026-01-01T00:00:01.000Z', requestedBy: 'alice' };
    expect(await recordMonitorStep(db, step)).toBe(2);
    // The same calls again (a restart before the cursor moved, or a newer version of the monitor): nothing new.
    expect(await recordMonitorStep(db, { ...step, callIds: ['b', 'c'], cursor: '2026-01-01T00:00:02.000Z' })).toBe(1);
    expect(await monitorCursor(db, P, 'quality')).toBe('2026-01-01T00:00:02.000Z');
    const rows = (await store.judgementsQuery({ project_id: P, monitor_ref: `weave:///${P}/object/quality:*` }, ctx)).judgements;
    expect(rows.map((j) => j.call_id).sort()).toEqual(['a', 'b', 'c']);
    expect(rows.every((j) => j.monitor_ref === ref)).toBe(true);
    expect((await store.judgementsStats({ project_id: P }, ctx)).groups).toEqual([
      { monitor: 'quality', scorer_ref: judge, queued: 3, running: 0, done: 0, failed: 0, cost_usd: 0, last_done_at: null },
    ]);
  });
});
