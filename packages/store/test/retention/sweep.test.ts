// The retention sweep: expired calls go with their feedback, in bounded batches; live calls and
// their feedback stay; then the files only expired calls referenced go, and every file a live
// value still names (object, table row, call, feedback) stays.
import { digestBytes } from '@weft/core';
import { expect, it } from 'vitest';
import { createStore } from '../../src/create-store.ts';
import type { Db } from '../../src/db/index.ts';
import { callRef } from '../../src/feedback/call-feedback.ts';
import { deleteCallBatch, expiredCalls } from '../../src/retention/sweep-calls.ts';
import { sweepExpired, type SweepCounts } from '../../src/retention/sweep.ts';
import { describeEachDialect } from '../dialects.ts';
import { catalogue, ctx, startReq, T0 } from '../calls/call-fixtures.ts';

const DAY = 86_400_000;
/** A clock `days` after T0 (the fixtures' started_at). */
const after = (days: number) => () => new Date(Date.parse(T0) + days * DAY);
const bytes = (text: string) => new TextEncoder().encode(text);
/** How Weave's SDKs put a file in a value: a custom object naming it by digest. */
const image = (digest: string) => ({
  _type: 'CustomWeaveType',
  weave_type: { type: 'PIL.Image.Image' },
  files: { 'image.png': digest },
  load_op: 'weave:///acme/p/op/load_PIL.Image.Image:abc',
});

function storeOf(db: Db) {
  return createStore({ db, catalogue });
}

async function callIds(db: Db, projectId: string): Promise<string[]> {
  const rows = await db.kysely.selectFrom('calls').select('id').where('project_id', '=', projectId).orderBy('id').execute();
  return rows.map((r) => r.id);
}

async function fileDigests(db: Db, projectId: string): Promise<string[]> {
  const rows = await db.kysely.selectFrom('files').select('digest').where('project_id', '=', projectId).orderBy('digest').execute();
  return rows.map((r) => r.digest);
}

async function feedbackRefs(db: Db, projectId: string): Promise<string[]> {
  const rows = await db.kysely
    .selectFrom('feedback')
    .select('weave_ref')
    .where('project_id', '=', projectId)
    .orderBy('weave_ref')
    .execute();
  return rows.map((r) => r.weave_ref);
}

describeEachDialect('retention sweep', (getDb) => {
  it('deletes expired calls with their feedback and keeps live calls and theirs', async () => {
    const db = getDb();
    const store = storeOf(db);
    const p = 'sweep/calls';
    const before = await store.callStart(startReq(p), ctx); // written without a retention: never expires
    await store.projectTtlSettingsUpdate({ project_id: p, retention_days: 1 }, ctx);
    const old = await store.callStart(startReq(p, { id: 'abc' }), ctx);
    // An id that starts like the expired one: its feedback must stay.
    const young = await store.callStart(startReq(p, { id: 'abc-2', started_at: new Date(Date.parse(T0) + 5 * DAY).toISOString() }), ctx);
    const deleted = await store.callStart(startReq(p, { id: 'abd' }), ctx);
    await store.callsDelete({ project_id: p, call_ids: [deleted.id] }, ctx); // soft-deleted and expired: goes too
    for (const [ref, note] of [
      [callRef(p, old.id), 'old'],
      [`${callRef(p, old.id)}/attr/output`, 'inside old'],
      [callRef(p, young.id), 'young'],
      [callRef(p, before.id), 'before'],
      [callRef(p, deleted.id), 'deleted'],
      [`weave:///${p}/object/prompt:abc`, 'an object'],
    ] as const) {
      await store.feedbackCreate({ project_id: p, weave_ref: ref, feedback_type: 'wandb.note.1', payload: { note } }, ctx);
    }
    // Another project's call with the same id and a retention: not this project's to sweep yet.
    await store.projectTtlSettingsUpdate({ project_id: 'sweep/calls-other', retention_days: 30 }, ctx);
    await store.callStart(startReq('sweep/calls-other', { id: 'abc' }), ctx);
    await store.feedbackCreate(
      { project_id: 'sweep/calls-other', weave_ref: callRef('sweep/calls-other', 'abc'), feedback_type: 'x', payload: {} },
      ctx,
    );

    // Not yet expired: nothing goes.
    expect(await sweepExpired(db, { now: after(0.5), fileGraceMs: 0 })).toMatchObject({ calls: 0, feedback: 0, skipped: false });
    const res = await sweepExpired(db, { now: after(2), fileGraceMs: 0 });
    expect(res).toMatchObject({ calls: 2, feedback: 3, files: 0, skipped: false, stopped: false });
    expect(await callIds(db, p)).toEqual([before.id, young.id].sort());
    expect(await feedbackRefs(db, p)).toEqual([callRef(p, before.id), callRef(p, young.id), `weave:///${p}/object/prompt:abc`].sort());
    expect(await callIds(db, 'sweep/calls-other')).toEqual(['abc']);
    expect(await feedbackRefs(db, 'sweep/calls-other')).toHaveLength(1);
    // The rest expires in its turn; a second sweep over nothing expired is a no-op.
    expect(await sweepExpired(db, { now: after(7) })).toMatchObject({ calls: 1, feedback: 1 });
    expect(await callIds(db, p)).toEqual([before.id]);
    expect(await sweepExpired(db, { now: after(7) })).toMatchObject({ calls: 0, feedback: 0, batches: 0 });
  });

  it('deletes only files no live value names, and never an upload nothing referenced', async () => {
    const db = getDb();
    const store = storeOf(db);
    const p = 'sweep/files';
    const upload = async (text: string, project = p) => (await store.fileCreate({ project_id: project, content: bytes(text) }, ctx)).digest;
    const onlyExpired = await upload('only expired');
    const inObject = await upload('in object');
    const inRow = await upload('in row');
    const inLiveCall = await upload('in live call');
    const inFeedback = await upload('in feedback');
    const orphan = await upload('orphan');
    const shared = await upload('shared');
    await upload('shared', 'sweep/files-other'); // the same digest in another project
    await store.projectTtlSettingsUpdate({ project_id: p, retention_days: 1 }, ctx);
    await store.callStart(
      startReq(p, {
        inputs: { img: image(onlyExpired), more: [image(inObject), image(inRow)], nested: { deep: [{ x: image(inLiveCall) }] } },
        attributes: { f: inFeedback },
      }),
      ctx,
    );
    await store.callStart(startReq(p, { output: null, inputs: { same: image(shared) } }), ctx);
    // The live references, one per kind of value.
    await store.objCreate({ obj: { project_id: p, object_id: 'logo', val: image(inObject) } }, { ...ctx, source: undefined });
    await store.tableCreate(
      { table: { project_id: p, rows: [{ picture: image(inRow) }] } },
      {
        ...ctx,
        source: undefined,
      },
    );
    await store.projectTtlSettingsUpdate({ project_id: p, retention_days: null }, ctx);
    await store.callStart(startReq(p, { inputs: { list: [image(inLiveCall)] } }), ctx);
    await store.feedbackCreate(
      { project_id: p, weave_ref: `weave:///${p}/object/logo:x`, feedback_type: 'x', payload: { file: inFeedback } },
      ctx,
    );

    const res = await sweepExpired(db, { now: after(2), fileGraceMs: 0 });
    expect(res).toMatchObject({ calls: 2, files: 2 });
    expect(await fileDigests(db, p)).toEqual([inObject, inRow, inLiveCall, inFeedback, orphan].sort());
    expect(await fileDigests(db, 'sweep/files-other')).toEqual([shared]);
    expect(await db.kysely.selectFrom('retention_file_candidates').selectAll().where('project_id', '=', p).execute()).toEqual([]);
    // A deleted object version still names its file (it can be created again): the file stays.
    await store.objDelete({ project_id: p, object_id: 'logo' }, ctx);
    await store.projectTtlSettingsUpdate({ project_id: p, retention_days: 1 }, ctx);
    await store.callStart(startReq(p, { inputs: { again: image(inObject) } }), ctx);
    expect(await sweepExpired(db, { now: after(3), fileGraceMs: 0 })).toMatchObject({ calls: 1, files: 0 });
    expect(await fileDigests(db, p)).toContain(inObject);
  });

  it('waits a grace period before deleting a file, and an upload of it in the meantime keeps it', async () => {
    const db = getDb();
    const store = storeOf(db);
    const p = 'sweep/grace';
    const [a, b] = [digestBytes(bytes('grace a')), digestBytes(bytes('grace b'))];
    await store.fileCreate({ project_id: p, content: bytes('grace a') }, ctx);
    await store.fileCreate({ project_id: p, content: bytes('grace b') }, ctx);
    await store.projectTtlSettingsUpdate({ project_id: p, retention_days: 1 }, ctx);
    await store.callStart(startReq(p, { inputs: { a: image(a), b: image(b) } }), ctx);
    const hour = 3_600_000;
    expect(await sweepExpired(db, { now: after(2), fileGraceMs: hour })).toMatchObject({ calls: 1, files: 0 });
    expect(await fileDigests(db, p)).toEqual([a, b].sort());
    // A client uploads b again (it is about to write a value naming it): b is no longer a candidate.
    await store.fileCreate({ project_id: p, content: bytes('grace b') }, ctx);
    const later = () => new Date(after(2)().getTime() + 30 * 60_000);
    expect(await sweepExpired(db, { now: later, fileGraceMs: hour })).toMatchObject({ files: 0 });
    const past = () => new Date(after(2)().getTime() + 2 * hour);
    expect(await sweepExpired(db, { now: past, fileGraceMs: hour })).toMatchObject({ files: 1 });
    expect(await fileDigests(db, p)).toEqual([b]);
  });

  it('works in batches bounded in calls and in bytes, a turn of the event loop between them', async () => {
    const db = getDb();
    const store = storeOf(db);
    const p = 'sweep/batches';
    await store.projectTtlSettingsUpdate({ project_id: p, retention_days: 1 }, ctx);
    const batch = Array.from({ length: 250 }, (_, i) => ({
      mode: 'start' as const,
      req: startReq(p, { id: `c${String(i).padStart(4, '0')}`, inputs: { text: 'x'.repeat(200) } }),
    }));
    await store.callUpsertBatch({ batch }, ctx);
    const seen: SweepCounts[] = [];
    let ticks = 0;
    let ticking = true;
    const tick = () => {
      if (!ticking) return;
      ticks++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const res = await sweepExpired(db, { now: after(2), batchCalls: 100, onBatch: (d) => seen.push(d) });
    ticking = false;
    expect(res).toMatchObject({ calls: 250, batches: 3 });
    expect(seen.map((d) => d.calls)).toEqual([100, 100, 50]);
    expect(ticks).toBeGreaterThanOrEqual(3);
    expect(await callIds(db, p)).toEqual([]);

    // By bytes: each call's values are about 220 bytes, so 500 bytes hold two.
    await store.callUpsertBatch({ batch: batch.slice(0, 7) }, ctx);
    const small: number[] = [];
    expect(await sweepExpired(db, { now: after(2), batchBytes: 500, onBatch: (d) => small.push(d.calls) })).toMatchObject({ calls: 7 });
    expect(small).toEqual([2, 2, 2, 1]);
  });

  it('stops between batches when asked (shutdown)', async () => {
    const db = getDb();
    const store = storeOf(db);
    const p = 'sweep/stop';
    await store.projectTtlSettingsUpdate({ project_id: p, retention_days: 1 }, ctx);
    const batch = Array.from({ length: 30 }, (_, i) => ({ mode: 'start' as const, req: startReq(p, { id: `s${i}` }) }));
    await store.callUpsertBatch({ batch }, ctx);
    let batches = 0;
    const res = await sweepExpired(db, { now: after(2), batchCalls: 10, onBatch: () => batches++, shouldStop: () => batches >= 2 });
    expect(res).toMatchObject({ calls: 20, stopped: true });
    expect(await callIds(db, p)).toHaveLength(10);
    // The next sweep takes up the rest.
    expect(await sweepExpired(db, { now: after(2) })).toMatchObject({ calls: 10, stopped: false });
  });

  it('leaves a call whose start was written again with a later expiry between the read and the delete', async () => {
    const db = getDb();
    const store = storeOf(db);
    const p = 'sweep/moved';
    await store.projectTtlSettingsUpdate({ project_id: p, retention_days: 1 }, ctx);
    const moved = await store.callStart(startReq(p, { id: 'moved' }), ctx);
    await store.callStart(startReq(p, { id: 'stays-expired' }), ctx);
    const now = after(2)().toISOString();
    const page = await expiredCalls(db, p, now);
    expect(page.map((c) => c.id).sort()).toEqual(['moved', 'stays-expired']);
    await store.callStart(startReq(p, { id: moved.id, started_at: now }), ctx); // now + 1 day
    expect(
      await deleteCallBatch(
        db,
        p,
        page.map((c) => c.id),
        now,
      ),
    ).toEqual({ calls: 1, feedback: 0 });
    expect(await callIds(db, p)).toEqual(['moved']);
  });

  it('does not break writers that run during a sweep', async () => {
    const db = getDb();
    const store = storeOf(db);
    const p = 'sweep/writers';
    await store.projectTtlSettingsUpdate({ project_id: p, retention_days: 1 }, ctx);
    const batch = Array.from({ length: 400 }, (_, i) => ({ mode: 'start' as const, req: startReq(p, { id: `w${i}` }) }));
    await store.callUpsertBatch({ batch }, ctx);
    const fresh = new Date(after(1.5)().getTime()).toISOString();
    const sweeping = sweepExpired(db, { now: after(2), batchCalls: 20 });
    const written: string[] = [];
    for (let i = 0; i < 40; i++) {
      const { id } = await store.callStart(startReq(p, { id: `new${i}`, started_at: fresh }), ctx);
      written.push(id);
      await store.feedbackCreate({ project_id: p, weave_ref: callRef(p, id), feedback_type: 'x', payload: {} }, ctx);
    }
    expect(await sweeping).toMatchObject({ calls: 400 });
    expect(await callIds(db, p)).toEqual(written.sort());
    expect(await feedbackRefs(db, p)).toHaveLength(40);
  });
});
