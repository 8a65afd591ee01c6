// The one reader of the spec's operations, shared by the server (routes, auth, body modes), the
// contract suite (generated from this list) and the tests: method (every HTTP method), path,
// security (operation-level, else global), body mode, documented answers.
import { createOperationMatcher, type OperationMatcher } from './operation-matcher.ts';
import {
  deref,
  escapeJsonPointer,
  isReference,
  type OpenApiDocument,
  type OperationObject,
  type ParameterObject,
  type ResponseObject,
} from './spec-document.ts';

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch' | 'head' | 'options' | 'trace';
const METHODS: readonly HttpMethod[] = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

export type AuthScheme = 'basic' | 'bearer';

/** Which rate limit an operation counts against (`x-weft-rate-class`; writes are `ingest`, the rest `query`). */
export type RateClass = 'ingest' | 'query';

/** What an operation needs of the key that runs it (`x-weft-access`), weakest first. */
export const ACCESS_LEVELS = ['read', 'write', 'admin'] as const;
export type Access = (typeof ACCESS_LEVELS)[number];

/** Whether a key of scope `held` may run an operation that needs `needed`: each level includes the ones before it. */
export const grants = (held: Access, needed: Access): boolean => ACCESS_LEVELS.indexOf(held) >= ACCESS_LEVELS.indexOf(needed);

/** How an operation's request body is read (`x-weft-body` in the spec); `none` when it has no body. */
export type BodyMode = 'none' | 'json' | 'lossless' | 'stream' | 'multipart' | 'bytes';
const BODY_MODES: readonly BodyMode[] = ['json', 'lossless', 'stream', 'multipart', 'bytes'];

/**
 * The shape of an operation's error answers (`x-weft-errors`): `weft`, the seed's (`{reason,
 * error_type}`, validation 422 `{detail}`), or `openai`, OpenAI's (`{error:{message,type,param,
 * code}}`, validation 400) for the routes OpenAI's clients call.
 */
export type ErrorShape = 'weft' | 'openai';

export interface DocumentedResponse {
  response: ResponseObject;
  /** JSON pointer (unescaped parts joined by `/`, escaped per RFC 6901) to the response object in the spec. */
  pointer: string;
}

export interface SpecOperation {
  operationId: string;
  method: HttpMethod;
  /** Path template, e.g. `/annotation_queues/{queue_id}`. */
  path: string;
  /** Schemes any one of which is accepted; empty when the operation needs no credentials. */
  schemes: AuthScheme[];
  /** Documented answers by status code (`'200'`, `'4XX'`, `'default'`), `$ref`s followed. */
  responses: Record<string, DocumentedResponse>;
  hasRequestBody: boolean;
  /** The body is `required` (a request without one is a 422 naming `body`). */
  requiresBody: boolean;
  /** How the body is read and what the handler receives (see apps/server/src/http/body/). */
  bodyMode: BodyMode;
  /** The rate limit it counts against, per API key (anonymous operations are never limited). */
  rateClass: RateClass;
  /** The scope a key needs to run it (`x-weft-access`): queries and reads `read`, changes `write`. */
  access: Access;
  /** How its errors are answered (`x-weft-errors`). */
  errorShape: ErrorShape;
  /** Media types the request body may have (the keys of its `content`). */
  requestMediaTypes: string[];
  /** Media type of the success (2XX) answer: `application/json`, `application/jsonl`, ... */
  successMediaType: string | undefined;
  /** For a JSON Lines answer: the component schema of one line (`x-weft-line-schema`). */
  lineSchema: string | undefined;
  /** For a server-sent events answer: the component schema of one event's data (`x-weft-event-schema`). */
  eventSchema: string | undefined;
  /** Parameters (path, query, header), with `$ref`s followed. */
  parameters: ParameterObject[];
  /** True when a request can break the schema: it has a body or a parameter. */
  takesInput: boolean;
}

export function specOperations(doc: OpenApiDocument): SpecOperation[] {
  const operations: SpecOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => deref<ParameterObject>(doc, p));
      const responses: Record<string, DocumentedResponse> = {};
      for (const [status, response] of Object.entries(op.responses)) {
        const pointer = isReference(response)
          ? response.$ref.slice(1) // a component: validate against it where it is defined
          : `/paths/${escapeJsonPointer(path)}/${method}/responses/${status}`;
        responses[status] = { response: deref<ResponseObject>(doc, response), pointer };
      }
      operations.push({
        operationId: op.operationId,
        method,
        path,
        schemes: schemesOf(doc, op.security ?? doc.security ?? []),
        responses,
        hasRequestBody: op.requestBody !== undefined,
        requiresBody: op.requestBody !== undefined && deref<{ required?: boolean }>(doc, op.requestBody).required === true,
        bodyMode: bodyModeOf(op, `${method.toUpperCase()} ${path}`),
        rateClass: rateClassOf(op, `${method.toUpperCase()} ${path}`),
        access: accessOf(op, `${method.toUpperCase()} ${path}`),
        errorShape: errorShapeOf(op, `${method.toUpperCase()} ${path}`),
        requestMediaTypes: Object.keys(
          op.requestBody ? (deref<{ content?: Record<string, unknown> }>(doc, op.requestBody).content ?? {}) : {},
        ),
        successMediaType: Object.keys(responses['200']?.response.content ?? {})[0],
        lineSchema: lineSchemaOf(doc, responses['200']?.response),
        eventSchema: eventSchemaOf(doc, responses['200']?.response),
        parameters,
        takesInput: op.requestBody !== undefined || parameters.some((p) => p.in !== 'cookie'),
      });
    }
  }
  return operations;
}

function lineSchemaOf(doc: OpenApiDocument, response: ResponseObject | undefined): string | undefined {
  const jsonl = response?.content?.['application/jsonl'];
  if (!jsonl) return undefined;
  const schema = deref<Record<string, unknown>>(doc, jsonl.schema as Record<string, unknown>);
  const name = schema['x-weft-line-schema'];
  if (typeof name !== 'string' || !(name in doc.components.schemas)) {
    throw new Error('a JSON Lines answer must name the schema of one line in x-weft-line-schema');
  }
  return name;
}

function eventSchemaOf(doc: OpenApiDocument, response: ResponseObject | undefined): string | undefined {
  const events = response?.content?.['text/event-stream'];
  if (!events) return undefined;
  const schema = deref<Record<string, unknown>>(doc, events.schema as Record<string, unknown>);
  const name = schema['x-weft-event-schema'];
  if (typeof name !== 'string' || !(name in doc.components.schemas)) {
    throw new Error('a text/event-stream answer must name the schema of one event in x-weft-event-schema');
  }
  return name;
}

function rateClassOf(op: OperationObject, where: string): RateClass {
  const declared = op['x-weft-rate-class'] ?? 'query';
  if (declared !== 'ingest' && declared !== 'query')
    throw new Error(`${where}: x-weft-rate-class must be ingest or query (got ${String(declared)})`);
  return declared;
}

function accessOf(op: OperationObject, where: string): Access {
  // Declared on every operation, so adding one means deciding who may run it.
  const declared = op['x-weft-access'];
  if (!(ACCESS_LEVELS as readonly unknown[]).includes(declared))
    throw new Error(`${where} must declare x-weft-access: ${ACCESS_LEVELS.join(' | ')} (got ${String(declared)})`);
  return declared as Access;
}

function errorShapeOf(op: OperationObject, where: string): ErrorShape {
  const declared = op['x-weft-errors'] ?? 'weft';
  if (declared !== 'weft' && declared !== 'openai')
    throw new Error(`${where}: x-weft-errors must be weft or openai (got ${String(declared)})`);
  return declared;
}

function bodyModeOf(op: OperationObject, where: string): BodyMode {
  const declared = op['x-weft-body'];
  if (op.requestBody === undefined) {
    if (declared !== undefined) throw new Error(`${where} declares x-weft-body but has no request body`);
    return 'none';
  }
  if (!BODY_MODES.includes(declared as BodyMode)) {
    throw new Error(`${where} must declare x-weft-body: ${BODY_MODES.join(' | ')} (got ${String(declared)})`);
  }
  return declared as BodyMode;
}

function schemesOf(doc: OpenApiDocument, security: Record<string, string[]>[]): AuthScheme[] {
  // `[]`, or an alternative `{}` in the list, means credentials are optional: anonymous.
  if (security.length === 0 || security.some((requirement) => Object.keys(requirement).length === 0)) return [];
  const schemes = new Set<AuthScheme>();
  for (const requirement of security) {
    const names = Object.keys(requirement);
    if (names.length > 1) throw new Error(`requirements combining schemes (${names.join(' + ')}) are not supported by the suite`);
    const scheme = doc.components.securitySchemes[names[0]!];
    const kind = scheme?.type === 'http' ? scheme.scheme?.toLowerCase() : undefined;
    if (kind !== 'basic' && kind !== 'bearer') throw new Error(`security scheme ${names[0]} is not HTTP basic or bearer`);
    schemes.add(kind);
  }
  return [...schemes];
}

/** The documented answer for `status`: exact code first, then `4XX`-style ranges, then `default`. */
export function documentedResponse(op: SpecOperation, status: number): DocumentedResponse | undefined {
  return op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? op.responses['default'];
}

const matchers = new WeakMap<readonly SpecOperation[], OperationMatcher<SpecOperation>>();

/** Finds the operation a request was for. Literal segments beat parameters (`/query` before `/{id}`). */
export function matchOperation(operations: readonly SpecOperation[], method: string, pathname: string): SpecOperation | undefined {
  let matcher = matchers.get(operations);
  if (!matcher) matchers.set(operations, (matcher = createOperationMatcher(operations)));
  const found = matcher.match(method, pathname);
  return found?.kind === 'operation' ? found.operation : undefined;
}
