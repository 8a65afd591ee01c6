// Cases of the trajectory operations (Bearer): models, their logs and checkpoints.
import type { WeftClient } from '@weft/client';
import type { ModelLogReq } from '@weft/types';
import { anyObject, invalid, type CaseContext, type OperationCase } from './case-types.ts';

export const createModel = (api: WeftClient, c: CaseContext) =>
  api.POST('/v1/preview/models', {
    body: {
      entity: c.entity,
      project: c.project,
      name: c.unique('agent'),
      base_model: 'OpenPipe/Qwen3-14B-Instruct',
      return_existing: true,
    },
  });

/** One group of two scored trajectories, as ART's model.log() sends it. */
export const logOf = (): ModelLogReq => ({
  split: 'val',
  trajectory_groups: [
    {
      trajectories: [
        {
          messages_and_choices: [
            anyObject({ role: 'user', content: 'Change my flight to Friday.' }),
            anyObject({ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Done.' } }),
          ],
          reward: 1,
          metrics: { correct: true, turns: 2 },
        },
        {
          messages_and_choices: [anyObject({ role: 'user', content: 'Change my flight.' })],
          reward: 0,
          metrics: { correct: false, turns: 1 },
        },
      ],
      exceptions: [],
    },
  ],
});

const modelPath = (model_id: string) => ({ path: { model_id } });

export const modelCases = {
  modelCreate: {
    tenancy: 'entity',
    request: (api, c, extra) =>
      api.POST('/v1/preview/models', {
        body: { entity: c.entity, project: c.project, name: c.unique('agent'), base_model: 'OpenPipe/Qwen3-14B-Instruct' },
        ...extra,
      }),
    invalid: [
      {
        name: 'a missing base_model',
        loc: ['body', 'base_model'],
        send: (api, c) => api.POST('/v1/preview/models', { body: invalid({ entity: c.entity, project: c.project, name: 'agent' }) }),
      },
      {
        name: 'a number as name',
        loc: ['body', 'name'],
        send: (api, c) =>
          api.POST('/v1/preview/models', { body: invalid({ entity: c.entity, project: c.project, name: 7, base_model: 'b' }) }),
      },
    ],
  },

  modelRead: {
    tenancy: { untested: 'the key cannot create a model in an entity it may not access' },
    request: (api, c, extra) => api.GET('/v1/preview/models/{model_id}', { params: modelPath(c.id()), ...extra }),
    async valid(api, c) {
      const { id } = await createModel(api, c);
      return api.GET('/v1/preview/models/{model_id}', { params: modelPath(id) });
    },
    invalid: [
      {
        name: 'a model_id longer than 128 characters',
        loc: ['path', 'model_id'],
        send: (api) => api.GET('/v1/preview/models/{model_id}', { params: modelPath('m'.repeat(129)) }),
      },
    ],
  },

  modelLog: {
    tenancy: { untested: 'the key cannot create a model in an entity it may not access' },
    request: (api, c, extra) => api.POST('/v1/preview/models/{model_id}/log', { params: modelPath(c.id()), body: logOf(), ...extra }),
    async valid(api, c) {
      const { id } = await createModel(api, c);
      return api.POST('/v1/preview/models/{model_id}/log', { params: modelPath(id), body: { ...logOf(), model_id: id } });
    },
    invalid: [
      {
        name: 'a missing split',
        loc: ['body', 'split'],
        send: (api, c) => {
          const { split: _, ...body } = logOf();
          return api.POST('/v1/preview/models/{model_id}/log', { params: modelPath(c.id()), body: invalid(body) });
        },
      },
      {
        name: 'a string as a reward',
        loc: ['body', 'trajectory_groups', '0', 'trajectories', '0', 'reward'],
        send: (api, c) => {
          const body = logOf();
          const groups = [{ trajectories: [{ ...body.trajectory_groups[0]!.trajectories![0], reward: 'high' }] }];
          return api.POST('/v1/preview/models/{model_id}/log', {
            params: modelPath(c.id()),
            body: invalid({ ...body, trajectory_groups: groups }),
          });
        },
      },
    ],
  },

  modelCheckpointCreate: {
    tenancy: { untested: 'the key cannot create a model in an entity it may not access' },
    request: (api, c, extra) =>
      api.POST('/v1/preview/models/{model_id}/checkpoints', { params: modelPath(c.id()), body: { step: 1 }, ...extra }),
    async valid(api, c) {
      const { id } = await createModel(api, c);
      return api.POST('/v1/preview/models/{model_id}/checkpoints', {
        params: modelPath(id),
        body: { step: 3, metrics: { 'train/loss': 0.42 } },
      });
    },
    invalid: [
      {
        name: 'a negative step',
        loc: ['body', 'step'],
        send: (api, c) => api.POST('/v1/preview/models/{model_id}/checkpoints', { params: modelPath(c.id()), body: invalid({ step: -1 }) }),
      },
      {
        name: 'a metric that is not a number',
        loc: ['body', 'metrics', 'val/reward'],
        send: (api, c) =>
          api.POST('/v1/preview/models/{model_id}/checkpoints', {
            params: modelPath(c.id()),
            body: invalid({ step: 1, metrics: { 'val/reward': 'high' } }),
          }),
      },
    ],
  },

  modelCheckpointsList: {
    tenancy: { untested: 'the key cannot create a model in an entity it may not access' },
    request: (api, c, extra) => api.GET('/v1/preview/models/{model_id}/checkpoints', { params: modelPath(c.id()), ...extra }),
    async valid(api, c) {
      const { id } = await createModel(api, c);
      await api.POST('/v1/preview/models/{model_id}/checkpoints', { params: modelPath(id), body: { step: 1 } });
      return api.GET('/v1/preview/models/{model_id}/checkpoints', { params: { ...modelPath(id), query: { limit: 1, order: 'desc' } } });
    },
    invalid: [
      {
        name: 'a limit over 100',
        loc: ['query', 'limit'],
        send: (api, c) =>
          api.GET('/v1/preview/models/{model_id}/checkpoints', { params: { ...modelPath(c.id()), query: invalid({ limit: 101 }) } }),
      },
    ],
  },

  modelCheckpointsDelete: {
    tenancy: { untested: 'the key cannot create a model in an entity it may not access' },
    request: (api, c, extra) =>
      api.DELETE('/v1/preview/models/{model_id}/checkpoints', { params: modelPath(c.id()), body: { steps: [1] }, ...extra }),
    async valid(api, c) {
      const { id } = await createModel(api, c);
      await api.POST('/v1/preview/models/{model_id}/checkpoints', { params: modelPath(id), body: { step: 1 } });
      return api.DELETE('/v1/preview/models/{model_id}/checkpoints', { params: modelPath(id), body: { steps: [1, 7] } });
    },
    invalid: [
      {
        name: 'steps that are not a list',
        loc: ['body', 'steps'],
        send: (api, c) =>
          api.DELETE('/v1/preview/models/{model_id}/checkpoints', { params: modelPath(c.id()), body: invalid({ steps: 1 }) }),
      },
    ],
  },

  modelsList: {
    tenancy: 'entity',
    // An `after` that names no model of the project: 404.
    request: (api, c, extra) =>
      api.GET('/v1/preview/models', { params: { query: { project: `${c.entity}/${c.project}`, after: c.id() } }, ...extra }),
    valid: (api, c) => api.GET('/v1/preview/models', { params: { query: { project: `${c.entity}/${c.project}` } } }),
    invalid: [
      {
        name: 'a project without an entity',
        loc: ['query', 'project'],
        send: (api) => api.GET('/v1/preview/models', { params: { query: invalid({ project: 'no-entity' }) } }),
      },
    ],
  },

  modelDelete: {
    tenancy: { untested: 'the key cannot create a model in an entity it may not access' },
    request: (api, c, extra) => api.DELETE('/v1/preview/models/{model_id}', { params: modelPath(c.id()), ...extra }),
    async valid(api, c) {
      const { id } = await createModel(api, c);
      return api.DELETE('/v1/preview/models/{model_id}', { params: modelPath(id) });
    },
    invalid: [
      {
        name: 'a model_id longer than 128 characters',
        loc: ['path', 'model_id'],
        send: (api) => api.DELETE('/v1/preview/models/{model_id}', { params: modelPath('m'.repeat(129)) }),
      },
    ],
  },

  modelMetricsHistory: {
    tenancy: { untested: 'the key cannot create a model in an entity it may not access' },
    request: (api, c, extra) => api.GET('/v1/preview/models/{model_id}/metrics', { params: modelPath(c.id()), ...extra }),
    async valid(api, c) {
      const { id } = await createModel(api, c);
      await api.POST('/v1/preview/models/{model_id}/log', { params: modelPath(id), body: logOf() });
      return api.GET('/v1/preview/models/{model_id}/metrics', { params: { ...modelPath(id), query: { split: 'val' } } });
    },
    invalid: [
      {
        name: 'a negative from_step',
        loc: ['query', 'from_step'],
        send: (api, c) =>
          api.GET('/v1/preview/models/{model_id}/metrics', { params: { ...modelPath(c.id()), query: invalid({ from_step: -1 }) } }),
      },
    ],
  },

  modelTrajectoriesList: {
    tenancy: { untested: 'the key cannot create a model in an entity it may not access' },
    request: (api, c, extra) => api.GET('/v1/preview/models/{model_id}/trajectories', { params: modelPath(c.id()), ...extra }),
    async valid(api, c) {
      const { id } = await createModel(api, c);
      await api.POST('/v1/preview/models/{model_id}/log', { params: modelPath(id), body: logOf() });
      return api.GET('/v1/preview/models/{model_id}/trajectories', { params: { ...modelPath(id), query: { split: 'val', limit: 1 } } });
    },
    invalid: [
      {
        name: 'a limit of 0',
        loc: ['query', 'limit'],
        send: (api, c) =>
          api.GET('/v1/preview/models/{model_id}/trajectories', { params: { ...modelPath(c.id()), query: invalid({ limit: 0 }) } }),
      },
    ],
  },

  trainingJobCreate: {
    tenancy: 'none',
    refused: { status: 501, why: 'Weft does not train' },
    request: (api, _c, extra) => api.POST('/v1/preview/training-jobs', { ...extra }),
    invalid: [],
    noInvalidRequest: 'it takes no input: the body is never read',
  },
} satisfies Record<string, OperationCase>;
