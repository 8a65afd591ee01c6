// @weft/client: the typed client of the Weft API (server or mock), on openapi-fetch.
export { createClient } from './create-client.ts';
export type { WeftClient, WeftClientOptions } from './create-client.ts';
export type { CallOptions, FileUpload, OperationHelpers } from './operation-helpers.ts';
export { authorizationHeader, authMiddleware, DEFAULT_BASIC_USERNAME } from './auth.ts';
export type { ClientAuth } from './auth.ts';
export { WeftApiError, isWeftApiError } from './weft-api-error.ts';
export type { WeftErrorBody } from './weft-api-error.ts';
export { parseJsonLines } from './json-lines.ts';
export type { ErrorBody, HttpMethod, PathsWith, RawClient, OperationInit, SuccessBody, TypedMethod } from './typed-methods.ts';
