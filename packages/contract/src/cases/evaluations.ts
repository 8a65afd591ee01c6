// Cases of the evaluations operation: eval_results/query, the project in the path.
import type { WeftClient } from '@weft/client';
import { anyObject, invalid, type CaseContext, type OperationCase } from './case-types.ts';
import { endOf, startOf } from './calls.ts';

const PATH = '/v2/{entity}/{project}/eval_results/query';
const projectPath = (c: CaseContext) => ({ path: { entity: c.entity, project: c.project } });

/** An evaluate call with one predict-and-score trial of an inline example. */
async function writeEvaluation(api: WeftClient, c: CaseContext): Promise<string> {
  const evaluation = c.id();
  const root = startOf(c, evaluation);
  await api.POST('/call/start', { body: { start: { ...root.start, op_name: 'Evaluation.evaluate', inputs: anyObject({ model: 'm' }) } } });
  const trial = c.id();
  const start = startOf(c, trial);
  await api.POST('/call/start', {
    body: {
      start: { ...start.start, parent_id: evaluation, op_name: 'Evaluation.predict_and_score', inputs: anyObject({ example: { q: 1 } }) },
    },
  });
  const end = endOf(c, trial);
  await api.POST('/call/end', { body: { end: { ...end.end, output: { output: 2, scores: { correct: true }, model_latency: 0.1 } } } });
  await api.POST('/call/end', { body: endOf(c, evaluation) });
  return evaluation;
}

export const evaluationCases = {
  evalResultsQuery: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.POST(PATH, { params: projectPath(c), body: { evaluation_call_ids: [c.id()], include_summary: true, limit: 10 }, ...extra }),
    async valid(api, c) {
      const evaluation = await writeEvaluation(api, c);
      const res = await api.POST(PATH, {
        params: projectPath(c),
        body: { evaluation_call_ids: [evaluation], include_summary: true, include_raw_data_rows: true, limit: 10 },
      });
      c.expectSchema('EvalResultsQueryRes', res);
      return res;
    },
    invalid: [
      {
        name: 'a missing evaluation_call_ids',
        loc: ['body', 'evaluation_call_ids'],
        send: (api, c) => api.POST(PATH, { params: projectPath(c), body: invalid({ limit: 1 }) }),
      },
      {
        name: 'a sort on a field that is no score',
        loc: ['body', 'sort_by', '0', 'field'],
        send: (api, c) =>
          api.POST(PATH, {
            params: projectPath(c),
            body: { evaluation_call_ids: [c.id()], sort_by: [{ field: 'inputs.question', direction: 'asc' }] },
          }),
      },
      {
        name: "Weave's filters, which Weft does not implement",
        loc: ['body', 'filters'],
        send: (api, c) =>
          api.POST(PATH, { params: projectPath(c), body: invalid({ evaluation_call_ids: [c.id()], filters: [{ query: {} }] }) }),
      },
      {
        name: 'include_costs, which Weft does not implement',
        loc: ['body', 'include_costs'],
        send: (api, c) => api.POST(PATH, { params: projectPath(c), body: invalid({ evaluation_call_ids: [c.id()], include_costs: true }) }),
      },
    ],
  },
} satisfies Record<string, OperationCase>;
