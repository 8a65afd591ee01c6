// Evaluations: the calls the Weave SDKs record for Evaluation.evaluate, compared example by example.
import type { StoreOptions } from '../store-options.ts';
import { storeMethods } from '../store.ts';
import { evalResultsQuery } from './eval-results-query.ts';

export function evaluationMethods({ db, catalogue }: StoreOptions) {
  return storeMethods({
    evalResultsQuery: (req, ctx) => evalResultsQuery(db, catalogue, req, ctx),
  });
}
