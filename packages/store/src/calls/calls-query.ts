// calls/query: calls/stream_query's calls as one JSON answer (Weave's calls/query). Whole answers
// are held in memory, so without a limit at most MAX_UNLIMITED calls are answered; more is a 400
// that says how to read them (page with limit and offset, or stream), never a silent cut.
import { invalidRequest, type Catalogue } from '@weft/core';
import type * as T from '@weft/types';
import type { Db } from '../db/index.ts';
import type { ReadingContext } from '../store.ts';
import { callsStreamQuery } from './calls-stream-query.ts';

export const MAX_UNLIMITED = 10_000;

export async function callsQuery(db: Db, catalogue: Catalogue, req: T.CallsStreamQueryReq, ctx: ReadingContext): Promise<T.CallsQueryRes> {
  const unlimited = req.limit == null;
  const calls: T.CallSchema[] = [];
  for await (const call of callsStreamQuery(db, catalogue, unlimited ? { ...req, limit: MAX_UNLIMITED + 1 } : req, ctx)) {
    if (calls.length === MAX_UNLIMITED && unlimited) {
      throw invalidRequest(
        `More than ${MAX_UNLIMITED} calls match: page through them with limit and offset, or read them with calls/stream_query`,
      );
    }
    calls.push(call);
  }
  return { calls };
}
