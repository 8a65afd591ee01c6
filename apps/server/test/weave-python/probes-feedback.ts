// Field probes of feedback and annotation queues (see field-probe.ts).
import { answerOf, read, type Ctx, type Probe } from './field-probe.ts';
import type { PythonSdk } from './wire.ts';

const callRef = (P: string) => `weave:///${P}/call/call-a`;
const allFeedback = async (sdk: PythonSdk, ctx: Ctx) => read(sdk, '/feedback/query', { project_id: ctx.P });
const byId = (id: string) => ({ $expr: { $eq: [{ $getField: 'id' }, { $literal: id }] } });

async function twoItems(sdk: PythonSdk, P: string): Promise<Record<string, string>> {
  const item = (id: string, note: string) => ({
    id,
    project_id: P,
    weave_ref: callRef(P),
    feedback_type: 'wandb.note.1',
    payload: { note },
  });
  await read(sdk, '/feedback/batch/create', { batch: [item('fb-1', 'first'), item('fb-2', 'second')] });
  return {};
}

/** The scorer and span fields of Weave's agent monitors: taken at their defaults only. */
const monitorFields = {
  scorer_tags: { refused: ['nsfw'], accepts: [] },
  scorer_tag_reasons: { refused: { nsfw: 'explicit' }, accepts: {} },
  scorer_tag_confidences: { refused: { nsfw: 0.9 }, accepts: {} },
  scorer_ratings: { refused: { _rating_: 0.8 }, accepts: {} },
  scorer_rating_reasons: { refused: { _rating_: 'fine' }, accepts: {} },
  scorer_rating_confidences: { refused: { _rating_: 0.9 }, accepts: {} },
  span_agent_name: { refused: 'midi-generator', accepts: '' },
  span_agent_version: { refused: '1.2.0', accepts: '' },
  span_status_code: { refused: 'OK', accepts: 'UNSET' },
  span_conversation_id: { refused: 'conv-1', accepts: '' },
  span_trace_id: { refused: 'trace-1', accepts: '' },
  scorer_trace_id: { refused: 'trace-2', accepts: '' },
} as const;

export const FEEDBACK_PROBES: Probe[] = [
  {
    path: '/feedback/create',
    model: 'FeedbackCreateReq',
    body: ({ P }) => ({ project_id: P, weave_ref: callRef(P), feedback_type: 'custom', payload: { score: 1 } }),
    observe: allFeedback,
    fields: {
      id: { honoured: 'fb-client-1' },
      project_id: { required: true },
      weave_ref: { required: true },
      creator: { honoured: 'Jane Smith' },
      feedback_type: { required: true },
      payload: { required: true },
      annotation_ref: { honoured: ({ P }: Ctx) => `weave:///${P}/object/label:abc` },
      runnable_ref: { honoured: ({ P }: Ctx) => `weave:///${P}/op/judge:abc` },
      call_ref: { honoured: ({ P }: Ctx) => `weave:///${P}/call/call-j` },
      trigger_ref: { honoured: ({ P }: Ctx) => `weave:///${P}/object/monitor:abc` },
      queue_id: { honoured: '0197331d-02aa-7d5c-a1e3-4f6b8c9d0e12' },
      ...monitorFields,
      wb_user_id: { unchanged: 'someone-else', why: 'the server records the authenticated user' },
    },
  },
  {
    path: '/feedback/query',
    model: 'FeedbackQueryReq',
    setup: twoItems,
    body: ({ P }) => ({ project_id: P }),
    observe: answerOf,
    fields: {
      project_id: { required: true },
      fields: { honoured: ['id', 'payload'] },
      query: { honoured: byId('fb-2') },
      sort_by: { honoured: [{ field: 'id', direction: 'desc' }] },
      limit: { honoured: 1 },
      offset: { honoured: 1 },
    },
  },
  {
    path: '/feedback/purge',
    model: 'FeedbackPurgeReq',
    setup: twoItems,
    body: ({ P }) => ({ project_id: P, query: byId('fb-1') }),
    observe: allFeedback,
    fields: { project_id: { required: true }, query: { required: true } },
  },
  {
    path: '/annotation_queues',
    model: 'AnnotationQueueCreateReq',
    body: ({ P }) => ({ project_id: P, name: 'Review', scorer_refs: [] }),
    observe: async (sdk, ctx) => read(sdk, '/annotation_queues/query', { project_id: ctx.P }),
    fields: {
      project_id: { required: true },
      name: { required: true },
      description: { honoured: 'Look at the failures' },
      scorer_refs: { required: true },
      wb_user_id: { unchanged: 'someone-else', why: 'the server records the authenticated user as created_by' },
    },
  },
  {
    path: '/annotation_queues/query',
    model: 'AnnotationQueuesQueryReq',
    setup: async (sdk, P) => {
      for (const name of ['alpha', 'beta']) await read(sdk, '/annotation_queues', { project_id: P, name, scorer_refs: [] });
      return {};
    },
    body: ({ P }) => ({ project_id: P }),
    observe: answerOf,
    fields: {
      project_id: { required: true },
      name: { honoured: 'alp' },
      sort_by: { honoured: [{ field: 'name', direction: 'asc' }] },
      limit: { honoured: 1 },
      offset: { honoured: 1 },
    },
  },
];
