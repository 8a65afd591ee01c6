// The operations of the spec, flattened: method, path, security scheme, documented answers.
// The suite is generated from this list, so an operation added to the spec shows up here first.
import {
  deref,
  escapeJsonPointer,
  isReference,
  type OpenApiDocument,
  type ParameterObject,
  type ResponseObject,
} from './spec-document.ts';

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch' | 'head' | 'options' | 'trace';
const METHODS: readonly HttpMethod[] = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

export type AuthScheme = 'basic' | 'bearer';

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
        parameters,
        takesInput: op.requestBody !== undefined || parameters.some((p) => p.in !== 'cookie'),
      });
    }
  }
  return operations;
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

/** Finds the operation a request was for. Literal segments beat parameters (`/query` before `/{id}`). */
export function matchOperation(operations: readonly SpecOperation[], method: string, pathname: string): SpecOperation | undefined {
  const candidates = operations
    .filter((op) => op.method === method.toLowerCase() && templateRegExp(op.path).test(pathname))
    .sort((a, b) => paramCount(a.path) - paramCount(b.path));
  return candidates[0];
}

const paramCount = (template: string) => (template.match(/\{[^}]+\}/g) ?? []).length;

const regExps = new Map<string, RegExp>();
function templateRegExp(template: string): RegExp {
  let re = regExps.get(template);
  if (!re) {
    const source = template
      .split(/(\{[^}]+\})/)
      .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('');
    re = new RegExp(`^${source}$`);
    regExps.set(template, re);
  }
  return re;
}
