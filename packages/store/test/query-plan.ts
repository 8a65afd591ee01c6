// What the database plans for a query (SQLite's `explain query plan`, PostgreSQL's `explain`), as
// one text: the tests that check an index serves a read look for its name here.
import { sql, type CompiledQuery } from 'kysely';
import type { Db } from '../src/db/index.ts';

/**
 * `seqscanOff`: PostgreSQL would scan a table this small whole, so the question asked is whether
 * the index can serve the query (`analyze` first, sequential scans off, for this connection only).
 */
export async function queryPlan(db: Db, compiled: CompiledQuery, opts: { seqscanOff?: string } = {}): Promise<string> {
  return db.kysely.connection().execute(async (conn) => {
    const pg = db.dialect === 'postgres' && opts.seqscanOff !== undefined;
    if (pg) {
      await sql`analyze ${sql.table(opts.seqscanOff!)}`.execute(conn);
      await sql`set enable_seqscan = off`.execute(conn);
    }
    try {
      const explain = db.dialect === 'sqlite' ? 'explain query plan ' : 'explain ';
      const { rows } = await conn.executeQuery<Record<string, string>>({ ...compiled, sql: explain + compiled.sql });
      return rows.map((r) => Object.values(r).join(' ')).join('\n');
    } finally {
      if (pg) await sql`reset enable_seqscan`.execute(conn);
    }
  });
}
