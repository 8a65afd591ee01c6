// The router's operations: OpenAI's chat completions and embeddings, and the endpoints' health.
// HTTP policy only: the project (tenancy), the deadline, the client's disconnect, the answer's
// form (JSON or server-sent events) and the call record; choosing endpoints, talking to them,
// relaying and pricing is @weft/router's. Errors are answered in OpenAI's shape by the error
// handler (the operations say `x-weft-errors: openai`).
import { createCatalogue, type Catalogue } from '@weft/core';
import {
  isRouterError,
  modelNotFound,
  OPENAI_ERROR_TYPES,
  RouterError,
  type ChatOutcome,
  type Router,
  type RouterConfig,
  type RouterErrorBody,
} from '@weft/router';
import { abortWhenClientGone } from '../http/client-gone.ts';
import { releaseDeadline } from '../http/deadline.ts';
import { writeEventStream } from '../http/event-stream.ts';
import { matchesIfNoneMatch } from '../http/if-none-match.ts';
import type { RecordHandle, RecordStart } from '../router/record-call.ts';
import { recordContentFor, routerProject } from '../router/router-project.ts';
import { startRequest } from '../router/request-handle.ts';
import { parseParent } from '../router/trace-context.ts';
import { ANSWERED, handlers, type Deps, type OperationInput } from './handler.ts';

/** How long a client may keep its socket full when no provider says (no router file). */
const DEFAULT_STALL_MS = 60_000;

export function routerHandlers({ router, recorder, routerLimits, auth, catalogue }: Deps) {
  return handlers({
    async routerChatCompletionsCreate(input, res) {
      const { body } = input;
      const current = router();
      const start = recordStart(input, 'openai.chat.completions.create', current?.config, body.stream === true);
      await admit(start);
      const signal = abortWhenClientGone(res);
      // The providers' timeouts bound the rest (first byte, idle gaps, total per attempt), not
      // REQUEST_TIMEOUT: a long stream or a long generation is not a stuck request.
      releaseDeadline(res);
      const call = startRequest({ recorder, limits: routerLimits }, start, current?.config);
      if (call.callId) res.setHeader('X-Weft-Call-Id', call.callId);
      const outcome = await routed(() => (current ?? noRouter(body.model)).chat(body, { signal }), call);
      if (outcome.kind === 'json') {
        call.finish({ ...outcome, output: outcome.body, error: undefined, endedAt: new Date() });
        return outcome.body;
      }
      try {
        await writeEventStream(res, outcome.events, { signal, stallMs: stallMsOf(current, outcome) });
      } finally {
        // Settles once the events ended or were stopped; a client gone or stalled is its error.
        const result = await outcome.result;
        call.finish({
          output: result.completion,
          served: outcome.served,
          priced: result.priced,
          attempts: outcome.attempts,
          error: result.error,
          endedAt: new Date(),
        });
      }
      return ANSWERED;
    },

    async routerEmbeddingsCreate(input, res) {
      const { body } = input;
      const current = router();
      const start = recordStart(input, 'openai.embeddings.create', current?.config, false);
      await admit(start);
      const signal = abortWhenClientGone(res);
      releaseDeadline(res);
      const call = startRequest({ recorder, limits: routerLimits }, start, current?.config);
      if (call.callId) res.setHeader('X-Weft-Call-Id', call.callId);
      const outcome = await routed(() => (current ?? noRouter(body.model)).embeddings(body, { signal }), call);
      call.finish({ ...outcome, output: outcome.body, error: undefined, endedAt: new Date() });
      return outcome.body;
    },

    async routerEndpointsList() {
      return { data: router()?.endpoints() ?? [] };
    },

    // GET /models: the router file's models when one is configured, else the shipped catalogue.
    async routerModelsList({ http }, res) {
      const served = modelsOf(router(), catalogue);
      res.set('ETag', served.etag).set('Cache-Control', 'public, max-age=60, must-revalidate');
      if (matchesIfNoneMatch(http.headers['if-none-match'], served.etag)) res.status(304).end();
      else res.type('application/json').send(served.body);
      return ANSWERED;
    },
  });

  /** 429 in OpenAI's shape when the key or the project is over a limit or a budget of the router file. */
  async function admit(start: RecordStart): Promise<void> {
    const refusal = await routerLimits?.admit(start.principal.keyId, start.projectId);
    if (refusal) throw new RouterError(refusal);
  }

  /** Where and how the request is recorded; 403 for a project of another entity (before anything is sent). */
  function recordStart(
    { body, principal, http }: OperationInput<'routerChatCompletionsCreate'> | OperationInput<'routerEmbeddingsCreate'>,
    op: RecordStart['op'],
    config: RouterConfig | undefined,
    stream: boolean,
  ): RecordStart {
    const projectId = routerProject(http.headers, principal, auth);
    const recordContent = recordContentFor(config?.projects, projectId, http.headers);
    const userAgent = http.headers['user-agent'];
    return {
      projectId,
      principal,
      op,
      inputs: body,
      recordContent,
      parent: parseParent(http.headers),
      startedAt: new Date(),
      requestedModel: body.model,
      stream,
      ...(userAgent === undefined ? {} : { clientUserAgent: userAgent }),
    };
  }
}

/** The router's answer; a refusal before anything was sent is recorded, then answered. */
async function routed<T>(run: () => Promise<T>, call: RecordHandle): Promise<T> {
  try {
    return await run();
  } catch (err) {
    call.finish({ output: undefined, served: undefined, priced: undefined, attempts: [], error: errorBodyOf(err), endedAt: new Date() });
    throw err;
  }
}

/** Without a router file no model is served: OpenAI's answer for an unknown model. */
function noRouter(model: string): never {
  throw modelNotFound(model, 'model');
}

function errorBodyOf(err: unknown): RouterErrorBody {
  if (isRouterError(err)) return err.toBody();
  return { status: 500, type: OPENAI_ERROR_TYPES.server, code: null, param: null, message: (err as Error)?.message ?? String(err) };
}

/** A client may hold the stream back as long as the serving provider may be silent (its idle timeout). */
function stallMsOf(router: Router | undefined, outcome: Extract<ChatOutcome, { kind: 'stream' }>): number {
  return router?.config.providers.find((p) => p.id === outcome.served.provider)?.timeouts.idle_ms ?? DEFAULT_STALL_MS;
}

// One body and ETag per router file (a reload brings a new config object).
const catalogues = new WeakMap<RouterConfig, Catalogue>();

function modelsOf(router: Router | undefined, shipped: Catalogue): Catalogue {
  if (!router) return shipped;
  let served = catalogues.get(router.config);
  if (!served) catalogues.set(router.config, (served = createCatalogue(router.models())));
  return served;
}
