// Cases of the usage operations (calls/usage, trace/usage): a root and its child, each with
// usage, rolled up by model.
import type { WeftClient } from '@weft/client';
import { anyObject, invalid, type CaseContext, type OperationCase } from './case-types.ts';
import { endOf, startOf } from './calls.ts';

/** A root with 12 + 3 tokens of one model, a child with 5 + 1 and a running grandchild: the root's usage is 17 + 4. */
async function writeTrace(api: WeftClient, c: CaseContext): Promise<{ root: string; child: string; trace: string }> {
  const root = c.id();
  const child = c.id();
  const start = startOf(c, root);
  const trace = start.start.trace_id!;
  await api.POST('/call/start', { body: start });
  const childStart = startOf(c, child);
  await api.POST('/call/start', { body: { start: { ...childStart.start, trace_id: trace, parent_id: root } } });
  const end = endOf(c, root);
  end.end.summary = anyObject({ usage: { 'gpt-4o-mini': { prompt_tokens: 12, completion_tokens: 3, requests: 1 } } });
  await api.POST('/call/end', { body: end });
  // A grandchild that stays running: the trace's one unfinished call.
  const childEnd = endOf(c, child);
  childEnd.end.summary = anyObject({ usage: { 'gpt-4o-mini': { prompt_tokens: 5, completion_tokens: 1, requests: 1 } } });
  await api.POST('/call/end', { body: childEnd });
  await api.POST('/call/start', { body: { start: { ...startOf(c).start, trace_id: trace, parent_id: child } } });
  return { root, child, trace };
}

function check(
  c: CaseContext,
  what: string,
  usage: Record<string, { prompt_tokens?: number; completion_tokens?: number }> | undefined,
  unfinished: string[],
) {
  // The mock answers the spec's example; the server sums what was written.
  if (c.kind !== 'server') return;
  const u = usage?.['gpt-4o-mini'];
  if (u?.prompt_tokens !== 17 || u.completion_tokens !== 4 || unfinished.length !== 1) {
    throw new Error(
      `${what} answered ${JSON.stringify(usage)} with unfinished ${JSON.stringify(unfinished)}, not 17 + 4 tokens and one unfinished call`,
    );
  }
}

export const callUsageCases = {
  callsUsage: {
    tenancy: 'project',
    request: (api, c, extra) => api.POST('/calls/usage', { body: { project_id: c.projectId, call_ids: [c.id()] }, ...extra }),
    async valid(api, c) {
      const { root } = await writeTrace(api, c);
      const body = await api.POST('/calls/usage', { body: { project_id: c.projectId, call_ids: [root], include_costs: true } });
      check(c, 'calls/usage', body.call_usage[root], body.unfinished_call_ids);
      return body;
    },
    invalid: [
      {
        name: 'missing call_ids',
        loc: ['body', 'call_ids'],
        send: (api, c) => api.POST('/calls/usage', { body: invalid({ project_id: c.projectId }) }),
      },
      {
        name: 'a limit above 10,000',
        loc: ['body', 'limit'],
        send: (api, c) => api.POST('/calls/usage', { body: { project_id: c.projectId, call_ids: [c.id()], limit: 10_001 } }),
      },
      {
        name: 'a field CallsUsageReq does not define',
        loc: ['body', 'filter'],
        send: (api, c) => api.POST('/calls/usage', { body: invalid({ project_id: c.projectId, call_ids: [], filter: {} }) }),
      },
    ],
  },
  traceUsage: {
    tenancy: 'project',
    request: (api, c, extra) => api.POST('/trace/usage', { body: { project_id: c.projectId, filter: { trace_ids: [c.id()] } }, ...extra }),
    async valid(api, c) {
      const { root, trace } = await writeTrace(api, c);
      const body = await api.POST('/trace/usage', { body: { project_id: c.projectId, filter: { trace_ids: [trace] } } });
      check(c, 'trace/usage', body.call_usage[root], body.unfinished_call_ids);
      return body;
    },
    invalid: [
      {
        name: 'a limit of 0',
        loc: ['body', 'limit'],
        send: (api, c) => api.POST('/trace/usage', { body: { project_id: c.projectId, limit: 0 } }),
      },
      {
        name: 'a field TraceUsageReq does not define',
        loc: ['body', 'call_ids'],
        send: (api, c) => api.POST('/trace/usage', { body: invalid({ project_id: c.projectId, call_ids: [] }) }),
      },
    ],
  },
} satisfies Record<string, OperationCase>;
