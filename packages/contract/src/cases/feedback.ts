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

  feedbackBatchCreate: {
    tenancy: 'project',
    request: (api, c, extra) => api.POST('/feedback/batch/create', { body: { batch: [{ ...noteOn(c), id: c.id() }] }, ...extra }),
    invalid: [
      {
        name: 'an item without its id',
        loc: ['body', 'batch', '0', 'id'],
        send: (api, c) => api.POST('/feedback/batch/create', { body: invalid({ batch: [noteOn(c)] }) }),
      },
      {
        name: 'an empty batch',
        loc: ['body', 'batch'],
        send: (api) => api.POST('/feedback/batch/create', { body: { batch: [] } }),
      },
    ],
  },

  feedbackQuery: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.POST('/feedback/query', {
        body: {
          project_id: c.projectId,
          query: { $expr: anyObject({ $eq: [{ $getField: 'feedback_type' }, { $literal: 'wandb.note.1' }] }) },
          limit: 10,
        },
        ...extra,
      }),
    invalid: [
      {
        name: 'a sort by a field that is not one',
        loc: ['body', 'sort_by', '0', 'field'],
        send: (api, c) =>
          api.POST('/feedback/query', { body: { project_id: c.projectId, sort_by: [{ field: invalid('payload'), direction: 'asc' }] } }),
      },
      {
        name: 'a field Weft does not honour',
        loc: ['body', 'include_deleted'],
        send: (api, c) => api.POST('/feedback/query', { body: invalid({ project_id: c.projectId, include_deleted: true }) }),
      },
    ],
  },

  feedbackStats: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.POST('/feedback/stats', {
        body: {
          project_id: c.projectId,
          start: new Date(Date.parse(c.now()) - 3_600_000).toISOString(),
          metrics: [{ json_path: 'output.score', value_type: 'numeric' }],
        },
        ...extra,
      }),
    invalid: [
      {
        name: 'a missing start',
        loc: ['body', 'start'],
        send: (api, c) => api.POST('/feedback/stats', { body: invalid({ project_id: c.projectId }) }),
      },
      {
        name: 'an aggregation that is not one',
        loc: ['body', 'metrics', '0', 'aggregations', '0'],
        send: (api, c) =>
          api.POST('/feedback/stats', {
            body: { project_id: c.projectId, start: c.now(), metrics: [{ json_path: 'score', aggregations: [invalid('average')] }] },
          }),
      },
      {
        name: 'a json_path with a quote',
        loc: ['body', 'metrics', '0', 'json_path'],
        send: (api, c) =>
          api.POST('/feedback/stats', { body: { project_id: c.projectId, start: c.now(), metrics: [{ json_path: "output'score" }] } }),
      },
    ],
  },

  feedbackPayloadSchema: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.POST('/feedback/payload_schema', {
        body: { project_id: c.projectId, start: new Date(Date.parse(c.now()) - 3_600_000).toISOString() },
        ...extra,
      }),
    invalid: [
      {
        name: 'a sample_limit above 5000',
        loc: ['body', 'sample_limit'],
        send: (api, c) => api.POST('/feedback/payload_schema', { body: { project_id: c.projectId, start: c.now(), sample_limit: 5001 } }),
      },
    ],
  },

  feedbackAggregate: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.POST('/feedback/aggregate', {
        body: {
          project_id: c.projectId,
          after_ms: Date.parse(c.now()) - 3_600_000,
          before_ms: Date.parse(c.now()),
          time_bucket_seconds: 600,
        },
        ...extra,
      }),
    invalid: [
      {
        name: 'a group_by that is not a dimension',
        loc: ['body', 'group_by', '0'],
        send: (api, c) =>
          api.POST('/feedback/aggregate', {
            body: { project_id: c.projectId, after_ms: 0, before_ms: 1, group_by: [invalid('feedback_type')] },
          }),
      },
      {
        name: 'a missing before_ms',
        loc: ['body', 'before_ms'],
        send: (api, c) => api.POST('/feedback/aggregate', { body: invalid({ project_id: c.projectId, after_ms: 0 }) }),
      },
    ],
  },

  feedbackReplace: {
    tenancy: 'project',
    // An id that was never stored: 404 on the server.
    request: (api, c, extra) => api.POST('/feedback/replace', { body: { ...noteOn(c), feedback_id: c.id() }, ...extra }),
    async valid(api, c) {
      const { id } = await api.POST('/feedback/create', { body: noteOn(c) });
      return api.POST('/feedback/replace', { body: { ...noteOn(c), feedback_id: id } });
    },
    invalid: [
      {
        name: 'a missing feedback_id',
        loc: ['body', 'feedback_id'],
        send: (api, c) => api.POST('/feedback/replace', { body: invalid(noteOn(c)) }),
      },
    ],
  },

  feedbackPurge: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.POST('/feedback/purge', {
        body: { project_id: c.projectId, query: { $expr: anyObject({ $eq: [{ $getField: 'id' }, { $literal: c.id() }] }) } },
        ...extra,
      }),
    invalid: [
      {
        name: 'a missing query',
        loc: ['body', 'query'],
        send: (api, c) => api.POST('/feedback/purge', { body: invalid({ project_id: c.projectId }) }),
      },
    ],
  },
} satisfies Record<string, OperationCase>;
