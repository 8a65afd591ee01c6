// Cases of the feedback operation.
import type { FeedbackCreateReq } from '@weft/types';
import { anyObject, invalid, type CaseContext, type OperationCase } from './case-types.ts';

export const noteOn = (c: CaseContext, callId = c.id()): FeedbackCreateReq => ({
  project_id: c.projectId,
  weave_ref: `weave:///${c.projectId}/call/${callId}`,
  feedback_type: 'wandb.note.1',
  payload: anyObject({ note: 'Answer cites the wrong policy.' }),
});

export const feedbackCases = {
  feedbackCreate: {
    tenancy: 'project',
    request: (api, c, extra) => api.POST('/feedback/create', { body: noteOn(c), ...extra }),
    invalid: [
      {
        name: 'a missing feedback_type',
        loc: ['body', 'feedback_type'],
        send: (api, c) => {
          const { feedback_type: _, ...body } = noteOn(c);
          return api.POST('/feedback/create', { body: invalid(body) });
        },
      },
      {
        name: 'a string as payload',
        loc: ['body', 'payload'],
        send: (api, c) => api.POST('/feedback/create', { body: invalid({ ...noteOn(c), payload: 'note' }) }),
      },
    ],
  },
} satisfies Record<string, OperationCase>;
