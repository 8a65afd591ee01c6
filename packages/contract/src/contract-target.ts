// What the suite runs against, and what it may therefore check.
import type { Exchange } from './exchange-recorder.ts';

export interface ContractTarget {
  /**
   * `mock`: Prism serving the spec. It checks that credentials of the right scheme are present
   * (not the key) and that requests match the schema, and answers with the spec's examples; so
   * only status and shape checks run. `server`: the real thing; keys, tenancy, 404s and round
   * trips are checked too.
   */
  kind: 'mock' | 'server';
  /** Root URL; a function when the server only starts in a beforeAll. */
  baseUrl: string | (() => string);
  /** A valid key (any string for the mock); a function when it is only made in a beforeAll. */
  apiKey: string | (() => string);
  /** `<entity>/<project>` the key may write to. */
  projectId: string;
  /** `<entity>/<project>` of an entity the key may NOT access (server: 403 checks). */
  otherEntityProject?: string;
  /** Entity for the trajectory operations; defaults to the entity of projectId. */
  entity?: string;
  /**
   * Extra checks on every answer, e.g. "no `sl-violations` header" when the target is the server
   * behind `prism proxy --errors`. Returns problems; an empty list means the answer is fine.
   */
  checkExchange?: (exchange: Exchange) => string[];
  /**
   * The server is reached through `prism proxy`, which answers requests without credentials of
   * the operation's scheme itself (even with request validation off); those checks are skipped.
   */
  behindPrismProxy?: boolean;
}

export const resolveBaseUrl = (target: ContractTarget): string =>
  typeof target.baseUrl === 'function' ? target.baseUrl() : target.baseUrl;

export const resolveApiKey = (target: ContractTarget): string => (typeof target.apiKey === 'function' ? target.apiKey() : target.apiKey);

export function entityOf(projectId: string): string {
  const slash = projectId.indexOf('/');
  if (slash <= 0) throw new Error(`project id "${projectId}" is not <entity>/<project>`);
  return projectId.slice(0, slash);
}

export function projectNameOf(projectId: string): string {
  return projectId.slice(projectId.indexOf('/') + 1);
}
