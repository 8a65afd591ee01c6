// Feedback as the Weave Python SDK adds and reads it (FB in weave-python-wire.md): add_reaction and
// add_note post /feedback/batch/create with ids the client made; call.feedback posts
// /feedback/query and builds `tsi.Feedback(**row)` with extra="forbid", so each row must hold
// exactly Weave's keys. Both databases.
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../test-server.ts';
import { pythonSdk } from './wire.ts';

/** The keys of tsi.Feedback: FeedbackCreateReq's fields plus id and created_at. */
const FEEDBACK_KEYS = [
  'annotation_ref',
  'call_ref',
  'created_at',
  'creator',
  'feedback_type',
  'id',
  'payload',
  'project_id',
  'runnable_ref',
  'trigger_ref',
  'wb_user_id',
  'weave_ref',
];

describeEachDatabase('Weave Python SDK: feedback added and read back', (getServer) => {
  it('stores a reaction and a note under their client ids and answers call.feedback', async () => {
    const server = getServer();
    const sdk = pythonSdk(server.url, server.aliceKey);
    const project_id = 'acme/py-feedback';
    const weave_ref = `weave:///${project_id}/call/0197331c-8b0e-7c3a-9f5e-2d41c7a0b6e1`;
    const item = (id: string, feedback_type: string, payload: object) => ({
      id,
      project_id,
      weave_ref,
      creator: null,
      feedback_type,
      payload,
      annotation_ref: null,
      runnable_ref: null,
      call_ref: null,
      trigger_ref: null,
      wb_user_id: null,
    });
    const created = await sdk.post('/feedback/batch/create', {
      batch: [
        item('01973320-2b3c-7d4e-9f50-6b7c8d9e0f1a', 'wandb.reaction.1', { emoji: '👍' }),
        item('01973320-2b3c-7d4e-9f50-6b7c8d9e0f1b', 'wandb.note.1', { note: 'cites the wrong policy' }),
      ],
    });
    expect(created.status).toBe(200);

    // call.feedback, exactly as serialized: every field of FeedbackQueryReq, unset ones as null.
    const query = {
      project_id,
      fields: null,
      query: { $expr: { $eq: [{ $getField: 'weave_ref' }, { $literal: weave_ref }] } },
      sort_by: [{ field: 'created_at', direction: 'asc' }],
      limit: null,
      offset: null,
    };
    const read = await sdk.post('/feedback/query', query);
    expect(read.status).toBe(200);
    const body = (await read.json()) as { result: Record<string, unknown>[]; total_count: number };
    expect(body.total_count).toBe(2);
    expect(body.result.map((r) => [r.id, r.feedback_type, r.payload, r.wb_user_id])).toEqual([
      ['01973320-2b3c-7d4e-9f50-6b7c8d9e0f1a', 'wandb.reaction.1', { emoji: '👍' }, 'alice'],
      ['01973320-2b3c-7d4e-9f50-6b7c8d9e0f1b', 'wandb.note.1', { note: 'cites the wrong policy' }, 'alice'],
    ]);
    for (const row of body.result) expect(Object.keys(row).sort()).toEqual(FEEDBACK_KEYS);

    // The SDK retries a batch it did not hear back from: the same ids, the same rows.
    expect(
      (
        await sdk.post('/feedback/batch/create', {
          batch: [item('01973320-2b3c-7d4e-9f50-6b7c8d9e0f1a', 'wandb.reaction.1', { emoji: '👍' })],
        })
      ).status,
    ).toBe(200);
    expect(((await (await sdk.post('/feedback/query', query)).json()) as { total_count: number }).total_count).toBe(2);

    // Another entity's key sees nothing of it: a 403, as everywhere.
    const bob = pythonSdk(server.url, server.bobKey);
    expect((await bob.post('/feedback/query', query)).status).toBe(403);
    expect((await bob.post('/feedback/batch/create', { batch: [item('x', 'wandb.note.1', { note: 'n' })] })).status).toBe(403);
  });
});
