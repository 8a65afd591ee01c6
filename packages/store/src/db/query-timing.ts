// Statement timings and pool use, for the server's metrics: Kysely times every statement it runs
// and hands the duration to its `log` option; a Db passes it on to whoever set `onQuery`.
import type { CompiledQuery, LogEvent } from 'kysely';

export interface QueryTiming {
  /**
   * Set by the server (http/metrics.ts); nothing is timed until then. `query` is the statement as
   * run, with its values (the bench captures what a request runs through it).
   */
  onQuery: ((seconds: number, failed: boolean, query: CompiledQuery) => void) | undefined;
}

export interface PoolStats {
  total: number;
  idle: number;
  /** Requests waiting for a connection. */
  waiting: number;
}

/** Kysely's `log` option feeding a QueryTiming (Kysely times every statement it runs). */
export function timedQueries(timing: QueryTiming): (event: LogEvent) => void {
  return (event) => timing.onQuery?.(event.queryDurationMillis / 1000, event.level === 'error', event.query);
}
