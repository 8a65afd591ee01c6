// `weft backup` on SQLite: a consistent copy of a live database through SQLite's online backup
// API, never a file copy (a copy of the main file alone misses what still sits in the WAL, and
// one taken mid-write is torn). The source connection holds one read transaction across every
// backup step: the copy is the database as of that instant. Without it, SQLite restarts a backup
// whenever another connection writes, so under a steady write load it never finishes; with it, the
// server's writes go on into the WAL (its checkpoints wait for the backup) and are not in the copy.
import { createReadStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';
import { TransferError } from '../transfer/row-codec.ts';

/** Pages copied so far of the database's total, after each step. */
export type PageProgress = (state: 'start' | 'pages' | 'end', done: number, total: number) => void;

export interface SqliteBackupOptions {
  /** Pages per step; between steps the event loop turns (progress, signals). Default 1000 (4 MB). */
  pagesPerStep?: number | undefined;
  onProgress?: PageProgress | undefined;
  signal?: AbortSignal | undefined;
}

export interface SqliteFileFacts {
  file: string;
  bytes: number;
  sha256: string;
  /** The migrations applied in the file, in name order (empty: not a Weft database). */
  migrations: string[];
}

export interface SqliteBackupReport extends SqliteFileFacts {
  pages: number;
  seconds: number;
}

/**
 * Copies `source` into `destination` with SQLite's backup API, a step of pages at a time,
 * reporting progress ('start', then 'pages' after each step) and stopping at `signal`; resolves the
 * number of pages copied.
 */
export async function copyPages(source: BetterSqlite3.Database, destination: string, opts: SqliteBackupOptions): Promise<number> {
  const step = opts.pagesPerStep ?? 1000;
  let pages = 0;
  await source.backup(destination, {
    progress: ({ totalPages, remainingPages }) => {
      if (pages === 0) opts.onProgress?.('start', 0, totalPages);
      pages = totalPages;
      opts.onProgress?.('pages', totalPages - remainingPages, totalPages);
      // Throwing here ends the backup; the caller removes what was written.
      opts.signal?.throwIfAborted();
      return step;
    },
  });
  return pages;
}

/** SHA-256 of a file, streamed. */
export async function fileSha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Opens a SQLite file read-only and checks it: SQLite's integrity_check must answer ok. Answers
 * the migrations it holds. Throws a TransferError saying what is wrong.
 */
export function checkSqliteFile(file: string): string[] {
  let db: BetterSqlite3.Database;
  try {
    db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new TransferError(`${file}: cannot open it as a SQLite database (${(err as Error).message}).`);
  }
  try {
    let problems: string[];
    try {
      problems = (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check);
    } catch (err) {
      throw new TransferError(`${file} is not a SQLite database, or a damaged one (${(err as Error).message}).`);
    }
    if (problems.length !== 1 || problems[0] !== 'ok') {
      throw new TransferError(`${file} fails SQLite's integrity check: ${problems.slice(0, 5).join('; ')}`);
    }
    const hasTable = db.prepare("select count(*) from sqlite_master where type = 'table' and name = 'kysely_migration'").pluck().get();
    if (Number(hasTable) === 0) return [];
    return db.prepare('select name from kysely_migration order by name').pluck().all() as string[];
  } finally {
    db.close();
  }
}

/** Facts about a finished backup file: size, checksum, and the migrations it holds (checked first). */
export async function sqliteFileFacts(file: string): Promise<SqliteFileFacts> {
  const migrations = checkSqliteFile(file);
  return { file, bytes: (await stat(file)).size, sha256: await fileSha256(file), migrations };
}

/**
 * Copies the SQLite database at `sourcePath` to `outFile` (which must not exist: the caller decides
 * about overwriting) while other processes may write to it. The copy is written next to `outFile`
 * and renamed into place once checked, so `outFile` is never a partial backup.
 */
export async function backupSqlite(sourcePath: string, outFile: string, opts: SqliteBackupOptions = {}): Promise<SqliteBackupReport> {
  const started = performance.now();
  const partial = `${outFile}.partial-${process.pid}`;
  let source: BetterSqlite3.Database;
  try {
    source = new BetterSqlite3(sourcePath, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new TransferError(`${sourcePath}: cannot open the SQLite database (${(err as Error).message}).`);
  }
  try {
    source.pragma('busy_timeout = 5000');
    // The read transaction starts at its first read: from here on, this connection sees one snapshot.
    source.exec('BEGIN');
    source.prepare('select count(*) from sqlite_master').pluck().get();
    // An abort ends the backup (better-sqlite3 closes it); the partial file goes below.
    const pages = await copyPages(source, partial, opts);
    source.exec('COMMIT');
    // The copy inherits the source's WAL mode: a backup is one self-contained file instead.
    const copy = new BetterSqlite3(partial, { fileMustExist: true });
    try {
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
    const facts = await sqliteFileFacts(partial);
    if (facts.migrations.length === 0) throw new TransferError(`${sourcePath} holds no Weft schema (never migrated): nothing to back up.`);
    await rename(partial, outFile);
    opts.onProgress?.('end', pages, pages);
    return { ...facts, file: outFile, pages, seconds: (performance.now() - started) / 1000 };
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  } finally {
    source.close();
  }
}
