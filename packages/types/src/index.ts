// Wire types of the Weft API, generated from spec/ (see openapi.ts). One request and one response
// type per operation, named after the operation's schemas (ObjsQueryReq ↔ ObjsQueryRes).
export type * from './openapi.ts';
import type { operations } from './openapi.ts';

/** operationId of every operation in the spec. */
export type OperationId = keyof operations;
