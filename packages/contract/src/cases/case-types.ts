// The shape of the per-operation cases the suite runs: one file per resource fills these in.
import type { WeftClient } from '@weft/client';

/** Everything a case needs besides the client; a copy with another project tests 403s. */
export interface CaseContext {
  readonly kind: 'mock' | 'server';
  /** `<entity>/<project>` to write to. */
  readonly projectId: string;
  /** Entity and project name, as the trajectory operations take them. */
  readonly entity: string;
  readonly project: string;
  /** A name nobody used before in this run (object ids, queue and model names). */
  unique(prefix: string): string;
  /** A fresh id (call ids, unknown model ids). */
  id(): string;
  /** Now, as the API writes timestamps. */
  now(): string;
  /** Fails the test unless `value` matches `#/components/schemas/<schema>` of the spec. */
  expectSchema(schema: string, value: unknown): void;
}

/** Extra init merged into a request: how the 415 check sends a body that is not JSON. */
export interface ExtraInit {
  headers?: Record<string, string>;
  bodySerializer?: (body: unknown) => BodyInit;
}

export type InvalidRequest = {
  /** What breaks the schema, as it reads in the test name: "a missing digest". */
  name: string;
  send(api: WeftClient, c: CaseContext): Promise<unknown>;
} & (
  | {
      /** The `detail[].loc` of the seed's 422 the server must name for it (checked against the server only). */
      loc: string[];
    }
  | {
      /**
       * For an operation with OpenAI's errors (`x-weft-errors: openai`): the `error.param` of the
       * 400 the server must name for it, e.g. `messages[0].role` (checked against the server only).
       */
      param: string;
    }
);

export interface OperationCase {
  /**
   * One call of the operation with a well-formed input. Ids in it are fresh, so against the
   * server an operation on an existing resource answers 404: the 404 check relies on that. The
   * other checks (401, 403, 415) send this request with other credentials or another project.
   */
  request(api: WeftClient, c: CaseContext, extra?: ExtraInit): Promise<unknown>;
  /** A call that succeeds, creating first what it needs; `request` when that already succeeds. */
  valid?(api: WeftClient, c: CaseContext): Promise<unknown>;
  /**
   * For an operation that documents no 2xx because it never succeeds by design (a call a known
   * client makes that Weft does not offer): the status `request` always gets, and why.
   */
  refused?: { status: number; why: string };
  /** Requests that break the schema (a missing required field, a wrong type): each must be a 422 (OpenAI's errors: a 400). */
  invalid: InvalidRequest[];
  /** Why there is no invalid request although the operation takes input. */
  noInvalidRequest?: string;
  /**
   * How `request` names the tenant: by project id or by entity, so a project of another entity
   * must be a 403; or why that cannot be tested.
   */
  tenancy: 'project' | 'entity' | 'none' | { untested: string };
}

/** Smuggles a value that breaks the schema past the client's types, on purpose. */
export const invalid = (value: unknown): never => value as never;

/**
 * A free-form JSON object where the spec says `type: object` with no properties (call inputs,
 * table rows, summaries). openapi-typescript types those as `Record<string, never>`, which no
 * real value fits; until the types are generated with `--empty-objects-unknown`, this cast lets
 * the suite send what the spec allows.
 */
export const anyObject = (value: Record<string, unknown>): Record<string, never> => value as Record<string, never>;
