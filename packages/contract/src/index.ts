// @weft/contract: the contract suite of the Weft API, run against the Prism mock (here) and
// against the server (apps/server), plus the spec tools it is built on.
export { defineContractSuite } from './define-contract-suite.ts';
export type { ContractTarget } from './contract-target.ts';
export { loadSpec, matchOperation, SPEC_FILE, specOperations } from '@weft/types/spec';
export type { AuthScheme, OpenApiDocument, SpecOperation } from '@weft/types/spec';
export { createSpecValidator } from './spec-validator.ts';
export type { SpecValidator } from './spec-validator.ts';
export { createExchangeRecorder } from './exchange-recorder.ts';
export type { Exchange, ExchangeRecorder } from './exchange-recorder.ts';
export { createConformanceChecker } from './conformance.ts';
export type { Conformance, ConformanceChecker } from './conformance.ts';
