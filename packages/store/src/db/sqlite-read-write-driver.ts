// SQLite with one writer connection and one reader connection, in one Kysely instance.
//
// Kysely's SQLite driver runs every statement on one connection, one user at a time: a write
// transaction that gives the event loop turns between its statements (a 100,000-item call batch
// is seconds of them) still made every read wait for its end, /health included (measured: 7 s).
// In WAL mode readers never wait for the writer. So a statement outside a transaction that only
// reads goes to a read-only connection and sees the last commit (read-your-writes holds: a
// write outside a transaction commits before its promise resolves); transactions and writes take
// the writer connection in turn, as before.
//
// Statements are synchronous (better-sqlite3), so the reader connection is never in use by two
// statements at once. Pragmas stay on the writer: they read or set that connection's state. An
// in-memory database exists on one connection: without a reader, everything runs on the writer.
//
// A request's deadline (deadline.ts) bounds the wait for the writer's turn, and a statement is not
// started past it: a transaction that ran out of time is rolled back at its next statement.
import { CompiledQuery, type DatabaseConnection, type Driver, type QueryResult, type SqliteDatabase, type SqliteStatement } from 'kysely';
import { raceDeadline, remainingMs } from './deadline.ts';
import type { CachedSqliteDatabase } from './statement-cache.ts';

export class ReadWriteSqliteDriver implements Driver {
  readonly #writerTurn = new Mutex();

  constructor(
    private readonly writer: CachedSqliteDatabase,
    private readonly reader: SqliteDatabase | undefined,
    private readonly checkpoints: WriterCheckpoints,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new RoutedConnection(this.writer, this.reader, this.#writerTurn, this.checkpoints);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as RoutedConnection).begin();
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
    this.checkpoints.committed();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    // SQLite rolls a transaction back by itself on some errors (SQLITE_FULL, SQLITE_IOERR, …):
    // a second rollback would fail and its error would replace the statement's own.
    if (!this.writer.inTransaction) return;
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteName(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${quoteName(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${quoteName(name)}`));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as RoutedConnection).release();
  }

  async destroy(): Promise<void> {
    this.reader?.close();
    this.writer.close();
  }
}

const quoteName = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** What the writer tells the checkpointer (sqlite-checkpointer.ts), and asks of it. */
export interface WriterCheckpoints {
  /** Runs once a commit of the writer has returned (the checkpointer counts them). */
  committed(): void;
  /** Before a write, holding the writer's turn: a promise to await while the WAL is over its bound. */
  walRoom(): Promise<void> | undefined;
}

class RoutedConnection implements DatabaseConnection {
  #inTransaction = false;

  constructor(
    private readonly writer: SqliteDatabase,
    private readonly reader: SqliteDatabase | undefined,
    private readonly writerTurn: Mutex,
    private readonly checkpoints: WriterCheckpoints,
  ) {}

  async begin(): Promise<void> {
    await this.writerTurn.lockWithin('waiting for the SQLite writer');
    this.#inTransaction = true;
    try {
      const room = this.checkpoints.walRoom();
      if (room) await room;
      remainingMs('starting a SQLite transaction');
      run(this.writer.prepare('begin'), []);
    } catch (err) {
      this.release();
      throw err;
    }
  }

  release(): void {
    if (!this.#inTransaction) return;
    this.#inTransaction = false;
    this.writerTurn.unlock();
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    // A rollback always runs: it ends what ran out of time.
    if (!/^rollback/.test(query.sql)) remainingMs('running a SQLite statement');
    if (this.#inTransaction) return run(this.writer.prepare(query.sql), query.parameters);
    if (this.reader && !/^\s*pragma\b/i.test(query.sql)) {
      const stmt = this.reader.prepare(query.sql) as SqliteStatement & { readonly: boolean };
      if (stmt.readonly && stmt.reader) return run(stmt, query.parameters);
    }
    await this.writerTurn.lockWithin('waiting for the SQLite writer');
    try {
      const room = this.checkpoints.walRoom();
      if (room) await room;
      // Outside a transaction a statement commits by itself.
      const result = run<R>(this.writer.prepare(query.sql), query.parameters);
      this.checkpoints.committed();
      return result;
    } finally {
      this.writerTurn.unlock();
    }
  }

  // Kysely's .stream(): on the writer, which it holds until the stream ends (the store pages
  // instead of streaming; this keeps the driver complete).
  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const locked = !this.#inTransaction;
    if (locked) await this.writerTurn.lock();
    try {
      for (const row of this.writer.prepare(query.sql).iterate(query.parameters)) yield { rows: [row as R] };
    } finally {
      if (locked) this.writerTurn.unlock();
    }
  }
}

function run<R>(stmt: SqliteStatement, parameters: readonly unknown[]): QueryResult<R> {
  if (stmt.reader) return { rows: stmt.all(parameters) as R[] };
  const { changes, lastInsertRowid } = stmt.run(parameters);
  return {
    numAffectedRows: changes == null ? undefined : BigInt(changes),
    insertId: lastInsertRowid == null ? undefined : BigInt(lastInsertRowid),
    rows: [],
  };
}

/** Writer turns, first come first served. */
class Mutex {
  #locked = false;
  readonly #waiting: Array<() => void> = [];

  lock(): Promise<void> {
    if (!this.#locked) {
      this.#locked = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  /** lock(), given up at the request's deadline: a turn that comes later is passed on at once. */
  lockWithin(what: string): Promise<void> {
    return raceDeadline(this.lock(), what, () => this.unlock());
  }

  unlock(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#locked = false;
  }
}
