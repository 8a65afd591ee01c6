// Types of the throwing methods: openapi-fetch's own request typing (paths, params, body), but the
// promise resolves to the 2xx body alone. Only openapi-fetch's exported types are used, so the
// inference is exactly the one of `raw`.
import type { Client, ClientPathsWithMethod, FetchResponse, MaybeOptionalInit } from 'openapi-fetch';
import type { paths } from '@weft/types';

/** The underlying openapi-fetch client; it never throws on HTTP errors. */
export type RawClient = Client<paths>;

/** The methods the spec uses. */
export type HttpMethod = 'get' | 'put' | 'post' | 'delete';

/** Paths of the spec that have an operation for `M`. */
export type PathsWith<M extends HttpMethod> = ClientPathsWithMethod<RawClient, M>;

type AnyMedia = `${string}/${string}`;

// Both as in openapi-fetch (which does not export them): an init argument that has a required
// key (a body, a path parameter) must be passed; otherwise it may be left out.
type RequiredKeysOfHelper<T> = { [K in keyof T]: Record<never, never> extends Pick<T, K> ? never : K }[keyof T];
type RequiredKeysOf<T> = RequiredKeysOfHelper<T> extends undefined ? never : RequiredKeysOfHelper<T>;
type InitParam<Init> = RequiredKeysOf<Init> extends never ? [(Init & { [key: string]: unknown })?] : [Init & { [key: string]: unknown }];

type FetchResult<P extends PathsWith<M>, M extends HttpMethod, Init> =
  // `any`, as openapi-fetch's own constraint on operations: `unknown` would not satisfy FetchResponse.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  paths[P][M] extends infer Op extends Record<string | number, any> ? FetchResponse<Op, Init, AnyMedia> : never;

/** The 2xx body of `M P` (shaped by `parseAs` when the call sets it). */
export type SuccessBody<P extends PathsWith<M>, M extends HttpMethod, Init = Record<never, never>> = Extract<
  FetchResult<P, M, Init>,
  { data: unknown }
>['data'];

/** The union of the error bodies `M P` documents (e.g. `ErrorReason | ValidationError`). */
export type ErrorBody<P extends PathsWith<M>, M extends HttpMethod> = Extract<
  FetchResult<P, M, Record<never, never>>,
  { error: unknown }
>['error'];

/** The init argument of `M P`: `params` (path, query, header) and `body` as the spec says. */
export type OperationInit<P extends PathsWith<M>, M extends HttpMethod> = MaybeOptionalInit<paths[P], M>;

/** A method that resolves to the 2xx body and rejects with a WeftApiError otherwise. */
export type TypedMethod<M extends HttpMethod> = <P extends PathsWith<M>, Init extends MaybeOptionalInit<paths[P], M>>(
  url: P,
  ...init: InitParam<Init>
) => Promise<SuccessBody<P, M, Init>>;
