// A database's own pace for a write (issue 31's floors: OTLP, table/create): a list of statements
// run in one transaction on a plain driver connection of the bench process, as the store writes
// (WAL and durable commits on SQLite), with no HTTP, parsing or encoding around them.
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';

export type Statement = { sql: string; parameters: readonly unknown[] };
export type Writer = ((statements: Statement[]) => Promise<void>) & { close: () => Promise<void> };

/** Runs a list of statements in one transaction on a plain connection: better-sqlite3 or pg. */
export async function plainWriter(databaseUrl: string): Promise<Writer> {
  if (databaseUrl.startsWith('sqlite:')) {
    const sqlite = new BetterSqlite3(databaseUrl.slice('sqlite:'.length));
    // As the store writes: WAL, and every commit durable.
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('busy_timeout = 5000');
    const prepared = new Map<string, BetterSqlite3.Statement>();
    const prepare = (text: string) => prepared.get(text) ?? prepared.set(text, sqlite.prepare(text)).get(text)!;
    const write = sqlite.transaction((statements: Statement[]) => {
      for (const s of statements) prepare(s.sql).run(...s.parameters);
    });
    return Object.assign((statements: Statement[]) => Promise.resolve(write(statements)), {
      close: () => Promise.resolve(void sqlite.close()),
    });
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  return Object.assign(
    async (statements: Statement[]) => {
      await client.query('begin');
      try {
        for (const s of statements) await client.query(s.sql, s.parameters as unknown[]);
        await client.query('commit');
      } catch (err) {
        await client.query('rollback');
        throw err;
      }
    },
    { close: () => client.end() },
  );
}
