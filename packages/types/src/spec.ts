// The runtime half of @weft/types: the one reader of the spec's operations and the operation
// matcher, for the server, the contract suite and tests. (The package root exports types only.)
export * from './spec-document.ts';
export * from './spec-operations.ts';
export * from './operation-matcher.ts';
