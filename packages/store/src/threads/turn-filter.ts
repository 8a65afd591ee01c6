// Which calls are a thread's turns for threads/stream_query, and the request's time bounds in the
// stored form.
import { invalidRequest } from '@weft/core';
import type * as T from '@weft/types';
import { sql, type RawBuilder } from 'kysely';
import { toIsoDatetime } from '../db/index.ts';

/**
 * Turn calls of the project (Weave: `id = turn_id`, the calls directly under a thread context),
 * live and started, narrowed by the filter. The first three conditions are, word for word, the
 * partial index calls_thread_turns_idx's (migration 0013), so both planners can use it.
 */
export function turnCondition(projectId: string, filter: T.ThreadsQueryFilter | null | undefined): RawBuilder<unknown> {
  const conds = [
    sql`project_id = ${projectId}`,
    sql`thread_id is not null`,
    sql`turn_id = id`,
    sql`deleted_at is null`,
    sql`started_at is not null`,
  ];
  const threadIds = filter?.thread_ids;
  // Weave: a list names the threads (the empty id included, if asked for); no list or an empty
  // one means every thread with a non-empty id.
  if (threadIds && threadIds.length > 0) conds.push(sql`thread_id in (${sql.join(threadIds)})`);
  else conds.push(sql`thread_id <> ''`);
  const after = filter?.after_datetime;
  const before = filter?.before_datetime;
  if (after != null) conds.push(sql`started_at > ${storedBound('after_datetime', after, 'down')}`);
  if (before != null) conds.push(sql`started_at < ${storedBound('before_datetime', before, 'up')}`);
  return sql.join(conds, sql` and `);
}

/**
 * A bound in the stored form (UTC, whole milliseconds), such that comparing stored starts with it
 * strictly gives what comparing with the exact instant would: digits past the millisecond are
 * dropped for a lower bound (start > 10.0005 ⇔ start > 10.000 for whole-ms starts) and round up
 * for an upper one (start < 10.0005 ⇔ start < 10.001).
 */
export function storedBound(field: string, value: string, rounding: 'down' | 'up'): string {
  let iso: string;
  try {
    iso = toIsoDatetime(value);
  } catch {
    throw invalidRequest(`${field} is not a valid datetime: ${JSON.stringify(value)}`);
  }
  const fraction = /[T ]\d{2}:\d{2}:\d{2}\.\d{3}(\d+)/.exec(value)?.[1];
  if (rounding === 'up' && fraction !== undefined && /[1-9]/.test(fraction)) {
    try {
      iso = toIsoDatetime(new Date(Date.parse(iso) + 1));
    } catch {
      throw invalidRequest(`${field} is not a valid datetime: ${JSON.stringify(value)}`);
    }
  }
  return iso;
}
