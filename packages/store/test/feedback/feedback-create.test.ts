// feedback/create: Weave's checks (each violation a 400), the authenticated user as svc_user_id,
// and the stored row.
import type * as T from '@weft/types';
import { expect, it } from 'vitest';
import { readJson } from '../../src/db/index.ts';
import { feedbackMethods } from '../../src/feedback/index.ts';
import { describeEachDialect } from '../dialects.ts';

const ctx = { user: 'alice' };
const P = 'acme/fb';
const CALL = `weave:///${P}/call/0197331c-8b0e-7c3a-9f5e-2d41c7a0b6e1`;
const SCORER_CALL = `weave:///${P}/call/0197331c-9a41-7f0b-8c2e-6b1d3e5f7a90`;
const OP_REF = `weave:///${P}/op/helpfulness:o2sfLDXEUi3RAFFFZGYX1wVMCFHpfHKgOcC9Xsn6BYM`;
const OBJ_REF = `weave:///${P}/object/helpfulness:o2sfLDXEUi3RAFFFZGYX1wVMCFHpfHKgOcC9Xsn6BYM`;
const ANNOTATION_REF = `weave:///${P}/object/quality:abc`;
const UUIDV7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function req(fields: Record<string, unknown>): T.FeedbackCreateReq {
  return { project_id: P, weave_ref: CALL, feedback_type: 'custom', payload: {}, ...fields };
}

describeEachDialect('feedback/create', (getDb) => {
  it('stores the feedback with a uuidv7 id, now, and the authenticated user (not the one sent)', async () => {
    const db = getDb();
    const before = new Date().toISOString();
    const res = await feedbackMethods({ db }).feedbackCreate(
      req({ feedback_type: 'wandb.note.1', payload: { note: 'Cites the wrong policy.' }, svc_user_id: 'mallory', creator: 'Alice A.' }),
      ctx,
    );
    expect(res).toEqual({
      id: expect.stringMatching(UUIDV7),
      created_at: expect.any(String),
      svc_user_id: 'alice',
      // Under Weave's name too, as the Python SDK's response model requires.
      wb_user_id: 'alice',
      payload: { note: 'Cites the wrong policy.' },
    });
    expect(res.created_at >= before && res.created_at <= new Date().toISOString()).toBe(true);
    const row = await db.kysely
      .selectFrom('feedback')
      .selectAll()
      .where('project_id', '=', P)
      .where('id', '=', res.id)
      .executeTakeFirstOrThrow();
    expect({ ...row, payload: readJson(db, row.payload) }).toEqual({
      project_id: P,
      id: res.id,
      weave_ref: CALL,
      feedback_type: 'wandb.note.1',
      payload: { note: 'Cites the wrong policy.' },
      creator: 'Alice A.',
      annotation_ref: null,
      runnable_ref: null,
      call_ref: null,
      trigger_ref: null,
      svc_user_id: 'alice',
      created_at: res.created_at,
      deleted_at: null,
      queue_id: null,
    });
  });

  it('accepts what the SDK sends for a scorer result, and the other valid shapes', async () => {
    const fb = feedbackMethods({ db: getDb() });
    const valid = [
      // EvaluationLogger / addScore: a runnable op with its call.
      req({
        feedback_type: 'wandb.runnable.helpfulness',
        payload: { output: { score: 0.9 } },
        runnable_ref: OP_REF,
        call_ref: SCORER_CALL,
      }),
      // An object scorer needs no call_ref; `output` may be null but must be there.
      req({ feedback_type: 'wandb.runnable.helpfulness', payload: { output: null }, runnable_ref: OBJ_REF }),
      req({ feedback_type: 'wandb.reaction.1', payload: { emoji: '👍' } }),
      req({ feedback_type: 'wandb.reaction.1', payload: { emoji: '👨‍👩‍👧' } }), // one ZWJ sequence
      req({ feedback_type: 'wandb.reaction.1', payload: { emoji: '👍🏽' } }), // with a skin tone
      req({ feedback_type: 'wandb.note.1', payload: { note: 'x'.repeat(1024) } }),
      // Annotations (which need their spec object): feedback-annotation.test.ts.
      req({ feedback_type: 'my.custom.type', payload: { anything: [1, 2, 3] }, creator: null, runnable_ref: null }),
    ];
    for (const r of valid) await expect(fb.feedbackCreate(r, ctx), r.feedback_type).resolves.toMatchObject({ svc_user_id: 'alice' });
  });

  it("rejects what Weave rejects, with a 400 and Weave's message", async () => {
    const fb = feedbackMethods({ db: getDb() });
    const runnable = { feedback_type: 'wandb.runnable.helpfulness', payload: { output: 1 }, runnable_ref: OP_REF, call_ref: SCORER_CALL };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ feedback_type: 'wandb.reaction.1', payload: { emoji: '👍👍' } }, /exactly one emoji/],
      [{ feedback_type: 'wandb.reaction.1', payload: { emoji: 'ok' } }, /exactly one emoji/],
      [{ feedback_type: 'wandb.reaction.1', payload: { emoji: 1 } }, /Invalid payload for feedback_type wandb\.reaction\.1/],
      [{ feedback_type: 'wandb.reaction.1', payload: {} }, /Invalid payload/],
      [{ feedback_type: 'wandb.note.1', payload: {} }, /Invalid payload for feedback_type wandb\.note\.1/],
      [{ feedback_type: 'wandb.note.1', payload: { note: '' } }, /Invalid payload/],
      [{ feedback_type: 'wandb.note.1', payload: { note: 'x'.repeat(1025) } }, /Invalid payload/],
      [{ ...runnable, runnable_ref: undefined }, /runnable_ref is required for runnable feedback/],
      [{ ...runnable, call_ref: undefined }, /call_ref is required for runnable feedback on ops/],
      [{ ...runnable, payload: { score: 1 } }, /Invalid payload for feedback_type wandb\.runnable\.helpfulness/],
      [{ ...runnable, feedback_type: 'wandb.runnable.other' }, /runnable_ref must point to an object with name other/],
      [{ ...runnable, feedback_type: 'wandb.runnablex' }, /Invalid runnable feedback type/],
      [{ ...runnable, runnable_ref: CALL }, /the kind must be op or object/],
      [{ ...runnable, runnable_ref: 'http://x/op/helpfulness:abc' }, /must start with weave:\/\/\//],
      [{ ...runnable, call_ref: OP_REF }, /the kind must be call/],
      [{ feedback_type: 'wandb.annotation.quality', payload: { value: 1 } }, /annotation_ref is required for annotation feedback/],
      [
        { feedback_type: 'wandb.annotation.quality', payload: { value: 1 }, annotation_ref: `weave:///${P}/object/other:abc` },
        /with name quality/,
      ],
      [{ feedback_type: 'wandb.annotation.quality', payload: {}, annotation_ref: ANNOTATION_REF }, /Invalid payload/],
      [
        { feedback_type: 'wandb.annotation.quality', payload: { value: 1 }, annotation_ref: 'weave:///acme/elsewhere/object/quality:abc' },
        /does not match project id/,
      ],
      [
        { feedback_type: 'wandb.note.1', payload: { note: 'n' }, annotation_ref: ANNOTATION_REF },
        /annotation_ref is not allowed for non-annotation feedback/,
      ],
      [
        { feedback_type: 'wandb.note.1', payload: { note: 'n' }, runnable_ref: OP_REF },
        /runnable_ref is not allowed for non-runnable feedback/,
      ],
      [{ call_ref: SCORER_CALL }, /call_ref is not allowed for non-runnable feedback/],
      [{ trigger_ref: OBJ_REF }, /trigger_ref is not allowed for non-runnable feedback/],
      [{ payload: [] }, /payload must be a JSON object/],
    ];
    for (const [fields, message] of cases) {
      await expect(fb.feedbackCreate(req(fields), ctx), JSON.stringify(fields)).rejects.toMatchObject({
        status: 400,
        errorType: 'InvalidRequest',
        message: expect.stringMatching(message),
      });
    }
  });

  it('caps the payload at 1 MiB of Python json.dumps text (non-ASCII counts as \\uXXXX)', async () => {
    const fb = feedbackMethods({ db: getDb() });
    // json.dumps({"a": s}) is `{"a": "` + s + `"}`: 9 characters around s.
    const limit = 1024 * 1024;
    await expect(fb.feedbackCreate(req({ payload: { a: 'x'.repeat(limit - 9) } }), ctx)).resolves.toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    await expect(fb.feedbackCreate(req({ payload: { a: 'x'.repeat(limit - 8) } }), ctx)).rejects.toMatchObject({
      status: 400,
      message: 'Feedback payload too large',
    });
    // 'é' is written \u00e9: six characters each. Small in UTF-8, too large for Weave.
    await expect(fb.feedbackCreate(req({ payload: { a: 'é'.repeat(Math.ceil(limit / 6)) } }), ctx)).rejects.toMatchObject({ status: 400 });
  });
});
