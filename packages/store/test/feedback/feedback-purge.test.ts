// feedback/purge (by id only, as Weave) and feedback/replace (purge one, create its successor, in
// one transaction), on both databases.
import { expect, it } from 'vitest';
import { callRef, feedbackMethods } from '../../src/feedback/index.ts';
import { describeEachDialect } from '../dialects.ts';

const ctx = { user: 'alice' };
const P = 'acme/fbp';
const note = (text: string) => ({ project_id: P, weave_ref: callRef(P, 'c1'), feedback_type: 'wandb.note.1', payload: { note: text } });
const byId = (id: string) => ({ $eq: [{ $getField: 'id' }, { $literal: id }] }) as unknown as Record<string, never>;

describeEachDialect('feedback purge and replace', (getDb) => {
  it('purges by id, or ids under $or, and refuses any other query', async () => {
    const fb = feedbackMethods({ db: getDb() });
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((t) => fb.feedbackCreate(note(t), ctx)));
    expect(await fb.feedbackPurge({ project_id: P, query: { $expr: byId(a!.id) } }, ctx)).toEqual({ num_deleted: 1 });
    expect(await fb.feedbackPurge({ project_id: P, query: { $expr: { $or: [byId(b!.id), byId('unknown')] } as never } }, ctx)).toEqual({
      num_deleted: 1,
    });
    // Another project's purge of the same id removes nothing here.
    expect(await fb.feedbackPurge({ project_id: 'acme/else', query: { $expr: byId(c!.id) } }, ctx)).toEqual({ num_deleted: 0 });
    for (const $expr of [
      { $eq: [{ $getField: 'feedback_type' }, { $literal: 'wandb.note.1' }] },
      { $and: [byId(c!.id)] },
      { $or: [] },
      { $eq: [{ $getField: 'id' }, { $literal: 1 }] },
    ])
      await expect(fb.feedbackPurge({ project_id: P, query: { $expr } as never }, ctx)).rejects.toMatchObject({ status: 400 });
    expect((await fb.feedbackQuery({ project_id: P }, ctx)).result.map((r) => r.id)).toEqual([c!.id]);
  });

  it('replaces an item with a new one, or changes nothing when the old one is unknown or the new one invalid', async () => {
    const fb = feedbackMethods({ db: getDb() });
    const p = 'acme/fbr';
    const old = await fb.feedbackCreate({ ...note('first'), project_id: p }, ctx);
    const res = await fb.feedbackReplace({ ...note('second'), project_id: p, feedback_id: old.id }, { user: 'bob' });
    expect(res).toMatchObject({ svc_user_id: 'bob', wb_user_id: 'bob', payload: { note: 'second' } });
    expect(res.id).not.toBe(old.id);
    const rows = async () => (await fb.feedbackQuery({ project_id: p }, ctx)).result.map((r) => [r.id, r.payload]);
    expect(await rows()).toEqual([[res.id, { note: 'second' }]]);
    await expect(fb.feedbackReplace({ ...note('third'), project_id: p, feedback_id: old.id }, ctx)).rejects.toMatchObject({ status: 404 });
    await expect(
      fb.feedbackReplace({ ...note('x'), project_id: p, feedback_type: 'wandb.reaction.1', payload: {}, feedback_id: res.id }, ctx),
    ).rejects.toMatchObject({ status: 400 });
    expect(await rows()).toEqual([[res.id, { note: 'second' }]]);
  });
});
