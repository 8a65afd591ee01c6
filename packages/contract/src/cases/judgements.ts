// Cases of LLM-as-judge: calls/score and the reads of judgements.
import type { WeftClient } from '@weft/client';
import { anyObject, invalid, type CaseContext, type OperationCase } from './case-types.ts';
import { startOf } from './calls.ts';

/** Weave's LLMAsAJudgeScorer as the Python SDK publishes it, its model inline. */
export const judgeScorerVal = (model = 'judge-model') =>
  anyObject({
    _type: 'LLMAsAJudgeScorer',
    _class_name: 'LLMAsAJudgeScorer',
    _bases: ['Scorer', 'Object', 'BaseModel'],
    model: {
      _type: 'LLMStructuredCompletionModel',
      _class_name: 'LLMStructuredCompletionModel',
      _bases: ['Model', 'Object', 'BaseModel'],
      llm_model_id: model,
      default_params: { messages_template: [{ role: 'system', content: 'You grade answers.' }], response_format: 'json' },
    },
    scoring_prompt: 'Question: {question}\nAnswer: {output}\nReply {{"score": 1-5}}.',
  });

async function scorerAndCall(api: WeftClient, c: CaseContext) {
  const object_id = c.unique('judge');
  const { digest } = await api.POST('/obj/create', { body: { obj: { project_id: c.projectId, object_id, val: judgeScorerVal() } } });
  const { id } = await api.POST('/call/start', { body: startOf(c) });
  return { scorer: `weave:///${c.projectId}/object/${object_id}:${digest}`, call: id };
}

export const judgementCases = {
  callsScore: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.POST('/calls/score', {
        body: { project_id: c.projectId, call_ids: [c.id()], scorer_refs: [`weave:///${c.projectId}/object/judge:latest`] },
        ...extra,
      }),
    async valid(api, c) {
      const { scorer, call } = await scorerAndCall(api, c);
      return api.POST('/calls/score', { body: { project_id: c.projectId, call_ids: [call], scorer_refs: [scorer] } });
    },
    invalid: [
      {
        name: 'no scorers',
        loc: ['body', 'scorer_refs'],
        send: (api, c) => api.POST('/calls/score', { body: { project_id: c.projectId, call_ids: [c.id()], scorer_refs: [] } }),
      },
      {
        name: 'a field Weft does not honour',
        loc: ['body', 'include_costs'],
        send: (api, c) =>
          api.POST('/calls/score', {
            body: invalid({
              project_id: c.projectId,
              call_ids: [c.id()],
              scorer_refs: ['weave:///a/b/object/j:latest'],
              include_costs: true,
            }),
          }),
      },
    ],
  },

  judgementsQuery: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.POST('/judgements/query', { body: { project_id: c.projectId, states: ['failed'], limit: 10 }, ...extra }),
    invalid: [
      {
        name: 'a state that is not one',
        loc: ['body', 'states', '0'],
        send: (api, c) => api.POST('/judgements/query', { body: { project_id: c.projectId, states: [invalid('lost')] } }),
      },
    ],
  },

  judgementsStats: {
    tenancy: 'project',
    request: (api, c, extra) => api.POST('/judgements/stats', { body: { project_id: c.projectId }, ...extra }),
    invalid: [
      {
        name: 'a missing project_id',
        loc: ['body', 'project_id'],
        send: (api) => api.POST('/judgements/stats', { body: invalid({}) }),
      },
    ],
  },
} satisfies Record<string, OperationCase>;
