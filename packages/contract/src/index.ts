// @weft/contract: the contract suite of the Weft API, run against the Prism mock (here) and
// against the server (apps/server), plus the spec tools it is built on.
export { defineContractSuite } from './define-contract-suite.ts';
export type { ContractTarget } from './contract-target.ts';
export { loadSpec, SPEC_FILE } from './spec-document.ts';
export type { OpenApiDocument } from './spec-document.ts';
export { specOperations, matchOperation } from './spec-operations.ts';
export type { SpecOperation, AuthScheme } from './spec-operations.ts';
export { createSpecValidator } from './spec-validator.ts';
export type { SpecValidator } from './spec-validator.ts';
export { createExchangeRecorder } from './exchange-recorder.ts';
export type { Exchange, ExchangeRecorder } from './exchange-recorder.ts';
export { createConformanceChecker } from './conformance.ts';
export type { Conformance, ConformanceChecker } from './conformance.ts';
