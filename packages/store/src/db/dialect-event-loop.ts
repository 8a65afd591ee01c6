// Dialect helpers for sharing the event loop with the database. better-sqlite3 is synchronous:
// a SQLite statement on the store's connection holds the event loop (other requests, timers, I/O)
// while it runs, so work of many statements keeps each one small and gives the loop a turn
// between them, and a long read goes to the reader thread first (Db.readLong). PostgreSQL's
// statements run on its server while the event loop goes on.
import { dialectOf, type DialectSource } from './dialect-source.ts';

/** True when a statement holds the event loop while it runs (SQLite): small statements, turns between them. */
export function statementsHoldEventLoop(d: DialectSource): boolean {
  return dialectOf(d) === 'sqlite';
}
