// Sends every request example of the spec to a server, in an order where one builds on another,
// and pairs each answer with the response example it should match (the one of the same name, or
// the operation's only one). Generated values (GENERATED) are aligned: ids learnt from answers are
// put into later requests, and the comparison takes the server's ids and times.
import type { OpenApiDocument, SpecOperation } from '@weft/types/spec';
import { deref } from '@weft/types/spec';

/**
 * The order examples are sent in: each may use what an earlier one created. Operations that never
 * succeed by design (the training call's 501) have no 200 example to check and are not sent.
 */
export const ORDER = [
  'live',
  'health',
  'ready',
  'metrics',
  'serverInfo',
  'graphqlQuery',
  'routerModelsList',
  'routerChatCompletionsCreate',
  'routerEmbeddingsCreate',
  'routerEndpointsList',
  'objCreate',
  // Tags and aliases before the reads, which show them.
  'objAddTags',
  'objSetAliases',
  'objRead',
  'objsQuery',
  'tagsList',
  'aliasesList',
  'objRemoveTags',
  'objRemoveAliases',
  'refsReadBatch',
  'tableCreate',
  'tableQuery',
  'tableUpdate',
  'tableQueryStats',
  'tableQueryStatsBatch',
  'callStart',
  'callEnd',
  'callUpsertBatch',
  'callRead',
  'callUpdate',
  'callsStreamQuery',
  'callsQuery',
  'callsQueryStats',
  'callsStats',
  'callsUsage',
  'traceUsage',
  'threadsStreamQuery',
  'evalResultsQuery',
  'fileCreate',
  'fileContent',
  'filesCreate',
  'filesContent',
  'feedbackCreate',
  'feedbackBatchCreate',
  'feedbackQuery',
  // A window in the past: the examples' feedback is written now, so the buckets are empty.
  'feedbackStats',
  'feedbackPayloadSchema',
  'feedbackAggregate',
  'feedbackReplace',
  'feedbackPurge',
  'costCreate',
  'costQuery',
  'costPurge',
  // The call of callStart's example, judged by objCreate's LLMAsAJudgeScorer.
  'callsScore',
  'judgementsQuery',
  'judgementsStats',
  'annotationQueueCreate',
  'annotationQueuesQuery',
  'annotationQueueRead',
  'annotationQueueUpdate',
  // Items before callsDelete (the call must be live to be added).
  'annotationQueueAddCalls',
  'annotationQueueItemsQuery',
  'annotationQueueItemProgressUpdate',
  'annotationQueuesStats',
  'annotationQueueItemsDelete',
  'modelCreate',
  'modelRead',
  'modelLog',
  'modelMetricsHistory',
  'modelCheckpointCreate',
  'modelCheckpointsList',
  'modelCheckpointsDelete',
  'modelTrajectoriesList',
  'modelsList',
  'modelDelete',
  'callsDelete',
  'objDelete',
  'annotationQueueDelete',
  'otelExport',
  // After every call was written: a retention would give later calls an expire_at.
  'projectTtlSettingsUpdate',
  'projectTtlSettingsRead',
  // Last: the projects every example above wrote to.
  'projectsList',
];

/** Operations whose answer changes with every request (counters): only their status is checked. */
// Measured at run time: the endpoints' health is what the replica saw, not a fixed answer.
// judgements/stats: what the judges have done by then.
const UNCOMPARED = new Set(['metrics', 'routerEndpointsList', 'judgementsStats']);

/** The router's operations: their examples run against a server with a router (spec-examples.test.ts). */
export const ROUTER_OPERATIONS: ReadonlySet<string> = new Set([
  'routerChatCompletionsCreate',
  'routerEmbeddingsCreate',
  'routerEndpointsList',
]);

/** Values the server makes up: the ids it generates and the time of the request. */
export const GENERATED = new Set([
  'id',
  'created_at',
  'updated_at',
  'deleted_at',
  'log_id',
  'trace_id',
  'trace_server_version',
  'commit',
  'first_id',
  'last_id',
]);
/** Of those, the ids later requests refer to. */
const IDS = new Set(['id', 'log_id', 'trace_id']);

export interface ExampleResult {
  operationId: string;
  op: SpecOperation;
  name: string;
  status: number;
  text: string;
  /** The parsed answer (JSON Lines as an array). */
  actual: unknown;
  /** The response example it should match, if the operation has one for it. */
  expected?: { name: string; value: unknown };
}

type Examples = Record<string, { value: unknown }>;
const mediaExamples = (content: Record<string, unknown> | undefined): Examples =>
  Object.values(content ?? {}).reduce<Examples>((all, media) => ({ ...all, ...((media as { examples?: Examples }).examples ?? {}) }), {});

function substitute(value: unknown, ids: Map<string, string>): unknown {
  if (typeof value === 'string') return ids.get(value) ?? [...ids].reduce((s, [from, to]) => s.replaceAll(from, to), value);
  if (Array.isArray(value)) return value.map((v) => substitute(v, ids));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, ids)]));
  return value;
}

/** `expected` with its generated fields replaced by the answer's (ids learnt on the way). */
export function alignGenerated(expected: unknown, actual: unknown, ids?: Map<string, string>): unknown {
  if (Array.isArray(expected) && Array.isArray(actual)) return expected.map((e, i) => alignGenerated(e, actual[i], ids));
  if (expected && typeof expected === 'object' && actual && typeof actual === 'object' && !Array.isArray(actual)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(expected)) {
      const a = (actual as Record<string, unknown>)[k];
      if (k === 'ids' && Array.isArray(v) && Array.isArray(a)) {
        // cost/create's `[id, llm_id]` pairs: the id is generated (and learnt), the model compared.
        out[k] = v.map((pair: unknown, i): unknown => {
          const got: unknown = a[i];
          if (!Array.isArray(pair) || !Array.isArray(got)) return pair;
          const [id, ...rest] = pair as unknown[];
          const generated: unknown = (got as unknown[])[0];
          if (ids && typeof id === 'string' && typeof generated === 'string' && id !== generated) ids.set(id, generated);
          return [generated, ...rest];
        });
      } else if (GENERATED.has(k) && a !== undefined) {
        if (ids && IDS.has(k) && typeof v === 'string' && typeof a === 'string' && v !== a) ids.set(v, a);
        out[k] = a;
      } else out[k] = alignGenerated(v, a, ids);
    }
    return out;
  }
  return expected;
}

/** The answer with the example's generated values kept (for rewriting an example without churn). */
export function keepGenerated(actual: unknown, expected: unknown): unknown {
  if (Array.isArray(actual) && Array.isArray(expected)) return actual.map((a, i) => keepGenerated(a, expected[i]));
  if (actual && typeof actual === 'object' && expected && typeof expected === 'object' && !Array.isArray(expected)) {
    const e = expected as Record<string, unknown>;
    const keep = (k: string, a: unknown): unknown => {
      // cost/create's `[id, llm_id]` pairs keep the example's ids.
      if (k === 'ids' && Array.isArray(a) && Array.isArray(e[k]))
        return a.map((pair: unknown, i) => {
          const was: unknown = (e[k] as unknown[])[i];
          return Array.isArray(pair) && Array.isArray(was) ? [was[0], ...(pair as unknown[]).slice(1)] : pair;
        });
      return GENERATED.has(k) && k in e ? e[k] : keepGenerated(a, e[k]);
    };
    return Object.fromEntries(Object.entries(actual).map(([k, a]) => [k, keep(k, a)]));
  }
  return actual;
}

export async function runExamples(
  doc: OpenApiDocument,
  operations: readonly SpecOperation[],
  url: string,
  key: string,
  /** Rewrites a JSON request body before it is sent (e.g. pydantic's nulls: with-nulls.ts). */
  transform?: (op: SpecOperation, body: unknown, schema: unknown) => unknown,
  /** Which operations of ORDER to run (default: all). */
  only: (operationId: string) => boolean = () => true,
): Promise<ExampleResult[]> {
  const ids = new Map<string, string>();
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  const results: ExampleResult[] = [];
  for (const operationId of ORDER.filter(only)) {
    const op = byId.get(operationId)!;
    const item = doc.paths[op.path]![op.method as 'post']!;
    const requests: Examples = item.requestBody ? mediaExamples(deref(doc, item.requestBody).content) : { none: { value: undefined } };
    const ok = item.responses['200'];
    const responses = ok ? mediaExamples(deref<{ content?: Record<string, unknown> }>(doc, ok).content) : {};
    for (const [index, [name, { value }]] of Object.entries(requests).entries()) {
      const headers: Record<string, string> = {};
      if (op.schemes[0] === 'basic') headers.authorization = `Basic ${Buffer.from(`api:${key}`).toString('base64')}`;
      if (op.schemes[0] === 'bearer') headers.authorization = `Bearer ${key}`;
      let body: BodyInit | undefined;
      if (op.bodyMode === 'multipart') {
        const fields = value as Record<string, string>;
        const form = new FormData();
        form.set('project_id', fields.project_id!);
        form.set('file', new Blob([fields.file ?? '']), 'blob');
        body = form;
      } else if (value !== undefined) {
        headers['content-type'] = 'application/json';
        const sent = substitute(value, ids);
        const schema = (deref(doc, item.requestBody!).content as Record<string, { schema?: unknown }>)['application/json']?.schema;
        body = JSON.stringify(transform ? transform(op, sent, schema) : sent);
      }
      const example = (p: SpecOperation['parameters'][number]) => String(substitute((p as { example?: unknown }).example ?? '', ids));
      const path = op.path.replace(/\{([^}]+)\}/g, (_m, n: string) =>
        encodeURIComponent(example(op.parameters.find((p) => p.name === n)!)),
      );
      // Optional query parameters without an example are left out, as a client would.
      const queryParams = op.parameters.filter(
        (p) => p.in === 'query' && (p.required === true || (p as { example?: unknown }).example !== undefined),
      );
      const query = queryParams.length > 0 ? `?${new URLSearchParams(queryParams.map((p) => [p.name, example(p)]))}` : '';
      const res = await fetch(`${url}${path}${query}`, { method: op.method.toUpperCase(), headers, body });
      const text = await res.text();
      const actual: unknown =
        op.successMediaType === 'application/jsonl'
          ? text
              .trim()
              .split('\n')
              .filter(Boolean)
              .map((l) => JSON.parse(l) as unknown)
          : op.successMediaType === 'application/json' && res.status === 200
            ? (JSON.parse(text) as unknown)
            : text;
      // The response example of the same name; else the only one, for the first request example
      // (the others of such an operation must just succeed).
      const expectedName = UNCOMPARED.has(operationId)
        ? undefined
        : name in responses
          ? name
          : index === 0 && Object.keys(responses).length === 1
            ? Object.keys(responses)[0]
            : undefined;
      let expected: ExampleResult['expected'];
      if (expectedName !== undefined) {
        const raw = responses[expectedName]!.value;
        const parsed =
          op.successMediaType === 'application/jsonl' && typeof raw === 'string'
            ? raw
                .trim()
                .split('\n')
                .map((l) => JSON.parse(l) as unknown)
            : raw;
        expected = { name: expectedName, value: alignGenerated(substitute(parsed, ids), actual, ids) };
      }
      results.push({ operationId, op, name, status: res.status, text, actual, expected });
    }
  }
  return results;
}
