// Refs: the values Weave refs point at, across objects, tables and calls.
import type { StoreOptions } from '../store-options.ts';
import { storeMethods } from '../store.ts';
import { refsReadBatch } from './refs-read-batch.ts';

export function refMethods({ db, catalogue }: StoreOptions) {
  return storeMethods({
    refsReadBatch: (req, ctx) => refsReadBatch(db, catalogue, req, ctx),
  });
}
