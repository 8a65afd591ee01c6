// Wire types of the Weft API, generated from spec/ (see openapi.ts). One request and one response
// type per operation, named after the operation's schemas (ObjsQueryReq ↔ ObjsQueryRes), and the
// per-operation views the server and the store are typed with (operation-types.ts). Types only:
// the spec reader is the `@weft/types/spec` entry.
export type * from './openapi.ts';
export type * from './operation-facts.ts';
export type * from './operation-types.ts';
