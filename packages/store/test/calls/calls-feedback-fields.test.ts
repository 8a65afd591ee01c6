// Feedback fields in the calls query language and sort keys (`feedback.[<type>].payload.<path>`,
// `feedback.[<type>].<column>`): each reads the newest live feedback row of that type on the
// call, in the same project; calls/stream_query and calls/query_stats answer alike; on both
// databases, and the lookup is a range of an index.
import { expect, it } from 'vitest';
import { callsQueryCondition } from '../../src/calls/calls-query-fields.ts';
import { createStore } from '../../src/create-store.ts';
import type { Db } from '../../src/db/index.ts';
import { callRef } from '../../src/feedback/index.ts';
import { feedbackRow } from '../../src/feedback/feedback-row.ts';
import { describeEachDialect } from '../dialects.ts';
import { queryPlan } from '../query-plan.ts';
import { catalogue, ctx, endReq, startReq } from './call-fixtures.ts';

const P = 'fbq/calls';
const OTHER = 'fbq/other';
const QUALITY = 'wandb.annotation.quality';
const SCORER = 'wandb.runnable.score_fn';
const f = (name: string) => ({ $getField: name });
const lit = (v: unknown) => ({ $literal: v });
const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();

let feedbackCount = 0;
async function addFeedback(
  db: Db,
  project: string,
  callId: string,
  type: string,
  payload: Record<string, unknown>,
  opts: { created?: string; id?: string; creator?: string; runnable_ref?: string } = {},
): Promise<void> {
  const id = opts.id ?? `fb-${String(++feedbackCount).padStart(4, '0')}`;
  const req = {
    project_id: project,
    weave_ref: callRef(project, callId),
    feedback_type: type,
    payload: payload as Record<string, never>,
    creator: opts.creator ?? null,
    runnable_ref: opts.runnable_ref ?? null,
  };
  await db.kysely
    .insertInto('feedback')
    .values(feedbackRow(db, req, id, 'alice', opts.created ?? at(feedbackCount)))
    .execute();
}

describeEachDialect('calls query: feedback fields', (getDb) => {
  // One fixture per database, shared by the tests (which only read it).
  let ready: ReturnType<typeof build> | undefined;
  const setup = () => (ready ??= build());
  async function build() {
    feedbackCount = 0;
    const db = getDb();
    const store = createStore({ db, catalogue });
    const names = ['good', 'poor', 'text4', 'none', 'scored', 'twice', 'dotted'];
    const ids: Record<string, string> = {};
    for (const [i, name] of names.entries()) {
      const { id } = await store.callStart(startReq(P, { started_at: at(i) }), ctx);
      await store.callEnd(endReq(P, id, { ended_at: at(i + 1) }), ctx);
      ids[name] = id;
    }
    // A call of another project with the same id shape, and its feedback: never seen from P.
    const { id: otherId } = await store.callStart(startReq(OTHER, { started_at: at(0) }), ctx);
    await addFeedback(db, OTHER, otherId, QUALITY, { value: 5 });
    // The same call id's ref in another project is another ref: not P's call's feedback.
    await addFeedback(db, OTHER, ids.none!, QUALITY, { value: 5 });
    // Feedback on another call (a ref that is not a call of P) is nobody's.
    await addFeedback(db, P, 'not-a-call', QUALITY, { value: 5 });

    await addFeedback(db, P, ids.good!, QUALITY, { value: 5 }, { creator: 'ann' });
    await addFeedback(db, P, ids.poor!, QUALITY, { value: 2 });
    await addFeedback(db, P, ids.text4!, QUALITY, { value: '4' });
    await addFeedback(db, P, ids.scored!, SCORER, { output: 0 }, { runnable_ref: 'weave:///fbq/calls/op/score_fn:abc' });
    await addFeedback(db, P, ids.scored!, QUALITY, { value: { nested: true } });
    // Two annotators: the newer row is the one read, whichever id is larger.
    await addFeedback(db, P, ids.twice!, QUALITY, { value: 5 }, { created: at(100), id: 'fb-zzzz' });
    await addFeedback(db, P, ids.twice!, QUALITY, { value: 1 }, { created: at(101), id: 'fb-aaaa' });
    // Same time: the larger id wins.
    await addFeedback(db, P, ids.twice!, SCORER, { output: { score: 1 } }, { created: at(102), id: 'fb-b' });
    await addFeedback(db, P, ids.twice!, SCORER, { output: { score: 9 } }, { created: at(102), id: 'fb-c' });
    await addFeedback(db, P, ids.dotted!, 'my.custom.type.v1', { a: { b: 'x' } });
    // A purged row is not read.
    await db.kysely
      .insertInto('feedback')
      .values({
        ...feedbackRow(
          db,
          { project_id: P, weave_ref: callRef(P, ids.none!), feedback_type: QUALITY, payload: { value: 5 } },
          'fb-del',
          'a',
          at(200),
        ),
        deleted_at: at(201),
      })
      .execute();

    const byId = Object.fromEntries(Object.entries(ids).map(([k, v]) => [v, k]));
    const matching = async ($expr: Record<string, unknown>) => {
      const query = { $expr: $expr as Record<string, never> };
      const streamed: string[] = [];
      for await (const c of store.callsStreamQuery({ project_id: P, query }, ctx) as AsyncIterable<{ id: string }>)
        streamed.push(byId[c.id]!);
      expect((await store.callsQueryStats({ project_id: P, query }, ctx)).count).toBe(streamed.length);
      return streamed.sort();
    };
    const sorted = async (field: string, direction: 'asc' | 'desc') => {
      const out: string[] = [];
      for await (const c of store.callsStreamQuery({ project_id: P, sort_by: [{ field, direction }] }, ctx) as AsyncIterable<{
        id: string;
      }>)
        out.push(byId[c.id]!);
      return out;
    };
    return { db, store, ids, matching, sorted };
  }

  it('filters on an annotation value, with and without $convert, the newest row of the type', async () => {
    const { matching } = await setup();
    const value = `feedback.[${QUALITY}].payload.value`;
    // good 5, text4 "4" (a numeric string), twice: its newer row says 1; poor 2; scored an object.
    expect(await matching({ $gte: [{ $convert: { input: f(value), to: 'double' } }, lit(4)] })).toEqual(['good', 'text4']);
    expect(await matching({ $gte: [f(value), lit(4)] })).toEqual(['good', 'text4']);
    expect(await matching({ $not: [{ $gte: [f(value), lit(4)] }] })).toEqual(['poor', 'twice']);
    expect(await matching({ $eq: [f(value), lit('4')] })).toEqual(['text4']);
    // Text reads any present value in its JSON text: the number 5 is "5".
    expect(await matching({ $eq: [f(value), lit('5')] })).toEqual(['good']);
    expect(await matching({ $eq: [f(`feedback.[${QUALITY}].payload.value.nested`), lit(true)] })).toEqual(['scored']);
    expect(await matching({ $eq: [f(`feedback.[${QUALITY}].creator`), lit('ann')] })).toEqual(['good']);
    expect(await matching({ $eq: [f(`feedback.[${QUALITY}].wb_user_id`), lit('alice')] })).toEqual([
      'good',
      'poor',
      'scored',
      'text4',
      'twice',
    ]);
    expect(await matching({ $eq: [f(`feedback.[${QUALITY}].payload`), lit(null)] })).toEqual(['dotted', 'none']);
    expect(await matching({ $gte: [f(`feedback.[${QUALITY}].created_at`), lit(at(101))] })).toEqual(['twice']);
  });

  it('answers Weave\'s "has this feedback" idiom: calls without the feedback do not match', async () => {
    const { matching } = await setup();
    const has = (type: string, path: string) => ({ $not: [{ $eq: [f(`feedback.[${type}].${path}`), lit('')] }] });
    // score_fn's output is the number 0: present, so not "".
    expect(await matching(has(SCORER, 'payload.output'))).toEqual(['scored', 'twice']);
    expect(await matching(has(SCORER, 'runnable_ref'))).toEqual(['scored']);
    expect(await matching(has(QUALITY, 'payload.value'))).toEqual(['good', 'poor', 'scored', 'text4', 'twice']);
    expect(
      await matching({ $eq: [{ $convert: { input: f(`feedback.[${SCORER}].payload.output.score`), to: 'double' } }, lit(9)] }),
    ).toEqual(['twice']);
    // A type with dots in its name, inside the brackets.
    expect(await matching({ $eq: [f('feedback.[my.custom.type.v1].payload.a.b'), lit('x')] })).toEqual(['dotted']);
    expect(
      await matching({ $eq: [{ $convert: { input: f('feedback.[my.custom.type.v1].payload.a'), to: 'exists' } }, lit(true)] }),
    ).toEqual(['dotted']);
  });

  it('sorts on a feedback value in either direction, calls without it last', async () => {
    const { sorted } = await setup();
    const value = `feedback.[${QUALITY}].payload.value`;
    // Numbers (numeric strings too) before other values; missing (none, dotted) last, by started_at then id.
    expect(await sorted(value, 'asc')).toEqual(['twice', 'poor', 'text4', 'good', 'scored', 'none', 'dotted']);
    expect(await sorted(value, 'desc')).toEqual(['good', 'text4', 'poor', 'twice', 'scored', 'none', 'dotted']);
    const score = `feedback.[${SCORER}].payload.output.score`;
    expect((await sorted(score, 'desc')).slice(0, 1)).toEqual(['twice']);
    expect((await sorted(`feedback.[${QUALITY}].creator`, 'desc')).slice(0, 1)).toEqual(['good']);
  });

  it('refuses a feedback field it does not know, naming it (query and sort)', async () => {
    const { store } = await setup();
    for (const name of [
      'feedback.[x]',
      'feedback.[x].nope',
      'feedback.x.payload.a',
      'feedback.[x].payload.',
      'feedback.[x].payload..a',
      'feedback.[].payload.a',
    ]) {
      await expect(
        store.callsQueryStats({ project_id: P, query: { $expr: { $eq: [f(name), lit(1)] } as never } }, ctx),
        name,
      ).rejects.toMatchObject({ status: 400, message: expect.stringContaining(`unknown field ${JSON.stringify(name)}`) });
      const stream = store.callsStreamQuery({ project_id: P, sort_by: [{ field: name, direction: 'asc' }] }, ctx) as AsyncIterable<unknown>;
      await expect(
        (async () => {
          for await (const _ of stream) void _;
        })(),
        name,
      ).rejects.toMatchObject({ status: 400, message: expect.stringContaining(JSON.stringify(name)) });
    }
  });

  it('finds the newest feedback of a type on a call from a range of an index', async () => {
    const db = getDb();
    const condition = callsQueryCondition(db, { $expr: { $gte: [f(`feedback.[${QUALITY}].payload.value`), lit(4)] } })!;
    const query = db.kysely.selectFrom('calls').select('calls.id').where('calls.project_id', '=', P).where(condition);
    const plan = await queryPlan(db, query.compile(), { seqscanOff: 'feedback' });
    // Three equalities, the newest row first: no sort of the call's feedback.
    if (db.dialect === 'sqlite') {
      expect(plan).toContain('feedback_call_type_idx (project_id=? AND weave_ref=? AND feedback_type=?)');
      expect(plan).not.toContain('TEMP B-TREE');
    } else {
      expect(plan).toContain('Index Scan Backward using feedback_call_type_idx');
      expect(plan).not.toContain('Sort');
    }
  });
});
