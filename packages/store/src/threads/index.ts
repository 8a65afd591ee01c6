// Threads: conversations, read from the calls that carry a thread_id (Weave's threads API).
import type { StoreOptions } from '../store-options.ts';
import { storeMethods } from '../store.ts';
import { threadsStreamQuery } from './threads-stream-query.ts';

export function threadMethods(opts: StoreOptions) {
  const { db } = opts;
  return storeMethods({
    threadsStreamQuery: (req) => threadsStreamQuery(db, req),
  });
}
