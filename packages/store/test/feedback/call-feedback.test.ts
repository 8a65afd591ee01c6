// The feedback of calls, as calls/stream_query's include_feedback attaches it.
import { expect, it } from 'vitest';
import { nowIso } from '../../src/db/index.ts';
import { callRef, feedbackMethods, feedbackOfCalls } from '../../src/feedback/index.ts';
import { describeEachDialect } from '../dialects.ts';

const ctx = { user: 'alice' };
const P = 'acme/cfb';

describeEachDialect('feedback of calls', (getDb) => {
  it('groups live feedback by call, oldest first; other refs, projects and deleted rows stay out', async () => {
    const db = getDb();
    const fb = feedbackMethods({ db });
    const note = (project_id: string, weave_ref: string, note: string) =>
      fb.feedbackCreate({ project_id, weave_ref, feedback_type: 'wandb.note.1', payload: { note } }, ctx);
    const first = await note(P, callRef(P, 'c1'), 'first');
    const second = await note(P, callRef(P, 'c1'), 'second');
    await note(P, callRef(P, 'c2'), 'other call');
    await note(P, `weave:///${P}/object/c1:abc`, 'an object, not the call');
    await note('acme/elsewhere', callRef('acme/elsewhere', 'c1'), 'other project');
    const gone = await note(P, callRef(P, 'c1'), 'deleted');
    await db.kysely.updateTable('feedback').set({ deleted_at: nowIso() }).where('project_id', '=', P).where('id', '=', gone.id).execute();

    const byCall = await feedbackOfCalls(db, P, ['c1', 'c3']);
    expect([...byCall.keys()]).toEqual(['c1', 'c3']);
    expect(byCall.get('c3')).toEqual([]);
    expect(byCall.get('c1')).toEqual([
      {
        id: first.id,
        feedback_type: 'wandb.note.1',
        weave_ref: callRef(P, 'c1'),
        payload: { note: 'first' },
        creator: null,
        created_at: first.created_at,
        svc_user_id: 'alice',
        runnable_ref: null,
        call_ref: null,
        trigger_ref: null,
        annotation_ref: null,
      },
      expect.objectContaining({ id: second.id, payload: { note: 'second' } }),
    ]);
    expect((await feedbackOfCalls(db, P, [])).size).toBe(0);
  });
});
