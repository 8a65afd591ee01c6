// Cases of the call statistics operation (calls/stats): buckets over a window of a few seconds.
import { anyObject, invalid, type OperationCase } from './case-types.ts';
import { endOf, startOf } from './calls.ts';

/** A start an hour ago: the default end (now) is after it whatever the clocks. */
const hourAgo = () => new Date(Date.now() - 3_600_000).toISOString();

export const callStatsCases = {
  callsStats: {
    tenancy: 'project',
    request: (api, c, extra) =>
      api.POST('/calls/stats', {
        body: { project_id: c.projectId, start: hourAgo(), call_metrics: [{ metric: 'call_count' }], filter: { call_ids: [c.id()] } },
        ...extra,
      }),
    async valid(api, c) {
      // One finished call with usage, counted in a window around it.
      const id = c.id();
      const started = Date.now();
      await api.POST('/call/start', { body: startOf(c, id) });
      const end = endOf(c, id);
      end.end.summary = anyObject({ usage: { 'gpt-4o-mini': { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 } } });
      await api.POST('/call/end', { body: end });
      const body = await api.POST('/calls/stats', {
        body: {
          project_id: c.projectId,
          start: new Date(started - 60_000).toISOString(),
          end: new Date(Date.now() + 60_000).toISOString(),
          granularity: 60,
          filter: { call_ids: [id] },
          call_metrics: [{ metric: 'call_count' }, { metric: 'latency_ms', aggregations: ['avg', 'max'], percentiles: [50, 99] }],
          usage_metrics: [{ metric: 'input_tokens' }, { metric: 'total_cost' }],
        },
      });
      const calls = body.call_buckets.reduce((n, b) => n + b.count, 0);
      const tokens = body.usage_buckets.reduce((n, b) => n + (b.sum_input_tokens ?? 0), 0);
      // The mock answers the spec's example; the server counts what was written.
      if (c.kind === 'server' && (calls !== 1 || tokens !== 12))
        throw new Error(`calls/stats counted ${calls} calls and ${tokens} input tokens, not 1 and 12`);
      return body;
    },
    invalid: [
      {
        name: 'a missing start',
        loc: ['body', 'start'],
        send: (api, c) => api.POST('/calls/stats', { body: invalid({ project_id: c.projectId }) }),
      },
      {
        name: 'a metric Weave does not define',
        loc: ['body', 'call_metrics', '0', 'metric'],
        send: (api, c) =>
          api.POST('/calls/stats', {
            body: invalid({ project_id: c.projectId, start: c.now(), call_metrics: [{ metric: 'token_count' }] }),
          }),
      },
      {
        name: 'an aggregation call statistics do not compute',
        loc: ['body', 'usage_metrics', '0', 'aggregations', '0'],
        send: (api, c) =>
          api.POST('/calls/stats', {
            body: invalid({
              project_id: c.projectId,
              start: c.now(),
              usage_metrics: [{ metric: 'input_tokens', aggregations: ['count_true'] }],
            }),
          }),
      },
      {
        name: 'a field CallStatsReq does not define',
        loc: ['body', 'query'],
        send: (api, c) => api.POST('/calls/stats', { body: invalid({ project_id: c.projectId, start: c.now(), query: {} }) }),
      },
    ],
  },
} satisfies Record<string, OperationCase>;
