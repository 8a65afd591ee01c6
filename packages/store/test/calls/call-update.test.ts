// call/update: renames a visible call; every other call is a 404.
import { expect, it } from 'vitest';
import { callUpdate } from '../../src/calls/call-update.ts';
import { nowIso } from '../../src/db/index.ts';
import { describeEachDialect } from '../dialects.ts';
import { callsOf, ctx, endReq, startReq } from './call-fixtures.ts';

describeEachDialect('call/update', (getDb) => {
  it('sets the display name, which call/read then shows and summary.weave derives from', async () => {
    const db = getDb();
    const calls = callsOf(db);
    await calls.callStart(startReq('up/a', { id: 'c', display_name: 'Old' }), ctx);
    await calls.callEnd(endReq('up/a', 'c'), ctx);
    await expect(callUpdate(db, { project_id: 'up/a', call_id: 'c', display_name: 'Password reset (good answer)' })).resolves.toEqual({});
    const { call } = await calls.callRead({ project_id: 'up/a', id: 'c' }, ctx);
    expect(call.display_name).toBe('Password reset (good answer)');
    expect(call.summary).toMatchObject({ weave: { display_name: 'Password reset (good answer)', status: 'success' } });
    // Nothing else changed.
    expect(call).toMatchObject({ op_name: 'my_op', ended_at: expect.any(String), output: null });
  });

  it('renames a running call too, and only the named one', async () => {
    const db = getDb();
    const calls = callsOf(db);
    await calls.callStart(startReq('up/b', { id: 'run' }), ctx);
    await calls.callStart(startReq('up/b', { id: 'other' }), ctx);
    await callUpdate(db, { project_id: 'up/b', call_id: 'run', display_name: 'Renamed' });
    expect((await calls.callRead({ project_id: 'up/b', id: 'run' }, ctx)).call.display_name).toBe('Renamed');
    expect((await calls.callRead({ project_id: 'up/b', id: 'other' }, ctx)).call.display_name).toBeUndefined();
  });

  it('is a 404 for unknown, end-only, deleted and other-project calls', async () => {
    const db = getDb();
    const calls = callsOf(db);
    await calls.callStart(startReq('up/c', { id: 'deleted' }), ctx);
    await db.kysely
      .updateTable('calls')
      .set({ deleted_at: nowIso() })
      .where('project_id', '=', 'up/c')
      .where('id', '=', 'deleted')
      .execute();
    await calls.callEnd(endReq('up/c', 'end-only'), ctx);
    await calls.callStart(startReq('up/elsewhere', { id: 'theirs' }), ctx);
    for (const id of ['unknown', 'end-only', 'deleted', 'theirs']) {
      await expect(callUpdate(db, { project_id: 'up/c', call_id: id, display_name: 'x' }), id).rejects.toMatchObject({
        status: 404,
        errorType: 'NotFoundError',
        message: `Call ${id} not found`,
      });
    }
    const theirs = await db.kysely
      .selectFrom('calls')
      .select('display_name')
      .where('project_id', '=', 'up/elsewhere')
      .executeTakeFirstOrThrow();
    expect(theirs.display_name).toBeNull();
  });

  it('allows 1024 characters and rejects more with a 400', async () => {
    const db = getDb();
    await callsOf(db).callStart(startReq('up/d', { id: 'c' }), ctx);
    await expect(callUpdate(db, { project_id: 'up/d', call_id: 'c', display_name: '😀'.repeat(1024) })).resolves.toEqual({});
    await expect(callUpdate(db, { project_id: 'up/d', call_id: 'c', display_name: 'x'.repeat(1025) })).rejects.toMatchObject({
      status: 400,
    });
  });
});
