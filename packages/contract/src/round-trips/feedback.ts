// Server only: feedback is stored as sent and checked as Weave checks it.
import { describe, expect, test } from 'vitest';
import { anyObject } from '../cases/case-types.ts';
import { noteOn } from '../cases/feedback.ts';
import { expectStatus, type SuiteContext } from '../suite-context.ts';

export function defineFeedbackRoundTrip(s: SuiteContext): void {
  describe('feedback', () => {
    test('a note is stored with its payload; a note without one is a 400', async () => {
      const api = s.client({ scheme: 'basic', key: 'valid' });
      const c = s.context();
      const note = noteOn(c);

      const created = await api.POST('/feedback/create', { body: note });
      expect(created.payload).toEqual(note.payload);
      expect(created.svc_user_id).not.toBe('');
      // The Weave Python SDK's FeedbackCreateRes requires wb_user_id: the same user.
      expect(created.wb_user_id).toBe(created.svc_user_id);

      // wandb.note.1 needs payload.note (a rule of the operation, not of the schema).
      await expectStatus(api.POST('/feedback/create', { body: { ...note, payload: anyObject({ text: 'no note' }) } }), 400);
    });
  });
}
