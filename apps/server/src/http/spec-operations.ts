// Reads the operations out of the bundled spec once at start: method, Express path, operationId
// and the auth scheme. Routes, authentication and the "every operation has a handler" check all
// come from this one list, so the spec stays the single definition of the API.
import spec from '@weft/spec' with { type: 'json' };
import type { AuthScheme } from '../auth/index.ts';

export type Method = 'get' | 'post' | 'put' | 'delete';

export interface SpecOperation {
  method: Method;
  /** OpenAPI path, e.g. `/annotation_queues/{queue_id}`. */
  path: string;
  /** Express path, e.g. `/annotation_queues/:queue_id`. */
  expressPath: string;
  operationId: string;
  /** The scheme the operation accepts, or undefined when it needs no credentials. */
  scheme: AuthScheme | undefined;
}

const SCHEMES: Record<string, AuthScheme> = { basicAuth: 'basic', bearerAuth: 'bearer' };

interface OperationObject {
  operationId?: string;
  security?: Array<Record<string, unknown>>;
}

export function specOperations(doc: { paths?: Record<string, Record<string, unknown>> } = spec): SpecOperation[] {
  const out: SpecOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of ['get', 'post', 'put', 'delete'] as const) {
      const op = item[method] as OperationObject | undefined;
      if (!op?.operationId) continue;
      const requirement = op.security?.[0];
      const schemeName = requirement ? Object.keys(requirement)[0] : undefined;
      out.push({
        method,
        path,
        expressPath: path.replace(/\{([^}]+)\}/g, ':$1'),
        operationId: op.operationId,
        scheme: schemeName ? SCHEMES[schemeName] : undefined,
      });
    }
  }
  return out;
}

export { spec };
