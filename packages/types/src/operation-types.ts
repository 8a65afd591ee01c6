// Type-level views of one operation K, derived from the generated `operations` (openapi.ts) and
// `OperationFacts` (operation-facts.ts). The server's handler map and the store's interface are
// both built from these, so the spec is the one declaration of every operation.
import type { components, operations } from './openapi.ts';
import type { OperationFacts } from './operation-facts.ts';

/** operationId of every operation in the spec. */
export type OperationId = keyof operations & keyof OperationFacts;

/** How the body of K is read: `none`, `json`, `lossless`, `stream`, `multipart` or `bytes` (x-weft-body). */
export type BodyModeOf<K extends OperationId> = OperationFacts[K]['body'];
/** The credentials K takes: `basic`, `bearer` or `none`. */
export type AuthOf<K extends OperationId> = OperationFacts[K]['auth'];

type ValueOf<T> = T[keyof T];

/** The request body of K as the spec describes it (whatever its media type), or `never`. */
export type RequestBodyOf<K extends OperationId> = operations[K] extends { requestBody: { content: infer C } }
  ? ValueOf<C>
  : operations[K] extends { requestBody?: { content: infer C } }
    ? ValueOf<C>
    : never;

type Params<K extends OperationId, Where extends 'path' | 'query' | 'header'> = operations[K]['parameters'] extends {
  [P in Where]: infer V;
}
  ? [V] extends [never] | [undefined]
    ? Record<never, never>
    : NonNullable<V>
  : operations[K]['parameters'] extends { [P in Where]?: infer V }
    ? [V] extends [never] | [undefined]
      ? Record<never, never>
      : Partial<NonNullable<V>>
    : Record<never, never>;

/** Path parameters of K (`{}` when it has none). */
export type PathParamsOf<K extends OperationId> = Params<K, 'path'>;
/** Query parameters of K (`{}` when it has none). */
export type QueryParamsOf<K extends OperationId> = Params<K, 'query'>;

type SuccessResponse<K extends OperationId> = operations[K]['responses'] extends { 200: infer R } ? R : never;
type SuccessContent<K extends OperationId> = SuccessResponse<K> extends { content: infer C } ? C : never;

/** Media type of K's 200 answer, e.g. `application/json`, `application/jsonl`. */
export type SuccessMediaTypeOf<K extends OperationId> = keyof SuccessContent<K> & string;
/** K's 200 body; for a JSON Lines answer, one line (its `x-weft-line-schema`). */
export type SuccessBodyOf<K extends OperationId> = OperationFacts[K]['line'] extends keyof components['schemas']
  ? components['schemas'][OperationFacts[K]['line']]
  : ValueOf<SuccessContent<K>>;
