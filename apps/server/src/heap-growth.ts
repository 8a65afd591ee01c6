// Bounds how far V8 lets the heap grow between full collections, for the `weft` process.
//
// By default V8 lets the old generation grow up to 4× what was live after the last full
// collection before it collects again. A trajectory log body makes a few MB of large strings per
// trajectory (its text, its stored text) that die at once but live in the large-object space, which
// only a full collection frees: with ~40 MB live, four 64 MB bodies in a row peaked at 320–390 MB.
// With a growing factor of 1.5: 238–260 MB, at the same ingest speed (1.3 collected more often for
// no lower peak; 2.0 peaked at 280 MB). BENCHMARKS.md, scenarios 4 and 6. V8 reads this flag each
// time it sets the next limit, so setting it once the process has started works.
// An operator who chose a factor (node --heap-growing-percent=N, or in NODE_OPTIONS) keeps it.
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 50;

const FLAG = /(^|\s)--heap[-_]growing[-_]percent\b/;

/** True when the node command line or NODE_OPTIONS already sets V8's heap growing percent. */
export function heapGrowthChosen(execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  return execArgv.some((arg) => FLAG.test(arg)) || FLAG.test(nodeOptions ?? '');
}

/** Sets the growing factor unless the operator chose one; returns whether it was set. */
export function boundHeapGrowth(execArgv = process.execArgv, nodeOptions = process.env.NODE_OPTIONS): boolean {
  if (heapGrowthChosen(execArgv, nodeOptions)) return false;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
