// `weft export`: a project, several, or every project, as a .tar.gz of JSON Lines (the format:
// archive-format.ts). Each table is read in bounded batches and written to a spool file beside
// the output (a tar entry states its size before its bytes, so one table at a time is spooled,
// never the whole export), then streamed into the tarball. The tarball is written under
// `<file>.partial` and renamed when complete: an interrupted export never leaves a file that
// looks finished.
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import tar, { type Pack } from 'tar-stream';
import type { Db } from '../db/db.ts';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_FORMAT_VERSION,
  CHECKSUMS_ENTRY,
  MANIFEST_ENTRY,
  tableEntry,
  type ArchiveChecksums,
  type ArchiveManifest,
} from './archive-format.ts';
import { DEFAULT_BATCH_SIZE, tableProgress, type TransferOptions } from './progress.ts';
import { encodeLine, TransferError } from './row-codec.ts';
import { assertCurrentSchema, knownMigrations } from './schema-state.ts';
import { checkTable, sumChecks, type TableCheck } from './table-check.ts';
import { countRows, holdsRows } from './table-io.ts';
import { EXPORTED_TABLES, TRANSFER_TABLES, type TransferTable } from './transfer-tables.ts';

export interface ExportOptions extends TransferOptions {
  /** Projects to export (`entity/project`); undefined or empty: every project. */
  projects?: readonly string[] | undefined;
  /** Recorded in the manifest. */
  weftVersion: string;
}

export interface ExportReport {
  file: string;
  bytes: number;
  manifest: ArchiveManifest;
  checksums: ArchiveChecksums;
  seconds: number;
}

export async function exportArchive(db: Db, file: string, opts: ExportOptions): Promise<ExportReport> {
  const started = performance.now();
  await assertCurrentSchema(db, 'source');
  const projects = opts.projects && opts.projects.length > 0 ? [...new Set(opts.projects)].sort() : null;
  for (const project of projects ?? []) {
    if (!(await holdsProject(db, project))) throw new TransferError(`Project "${project}" holds no data in this database.`);
  }
  const known = knownMigrations(db);
  const manifest: ArchiveManifest = {
    format: ARCHIVE_FORMAT,
    formatVersion: ARCHIVE_FORMAT_VERSION,
    weftVersion: opts.weftVersion,
    schema: known[known.length - 1] as string,
    createdAt: new Date().toISOString(),
    projects,
    tables: EXPORTED_TABLES.map((t) => t.name),
    excluded: Object.fromEntries(
      TRANSFER_TABLES.filter((t) => t.scope !== 'project').map((t) => [
        t.name,
        t.scope === 'global' ? 'API keys of the deployment (hashes): never exported; `weft copy` moves them' : 'a cache, rebuilt on use',
      ]),
    ),
  };
  const checksums: ArchiveChecksums = { tables: {}, files: {} };

  const partial = `${file}.partial`;
  const spool = await mkdtemp(join(dirname(file), '.weft-export-'));
  const pack = tar.pack();
  const written = pipeline(pack, createGzip(), createWriteStream(partial));
  written.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled
  try {
    await addEntry(pack, MANIFEST_ENTRY, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`));
    for (const table of EXPORTED_TABLES) {
      opts.signal?.throwIfAborted();
      const path = join(spool, tableEntry(table.name));
      const spooled = await spoolTable(db, table, path, projects, opts);
      await addFileEntry(pack, tableEntry(table.name), path, spooled.bytes);
      await rm(path);
      checksums.tables[table.name] = spooled.check;
      checksums.files[tableEntry(table.name)] = { bytes: spooled.bytes, sha256: spooled.sha256 };
    }
    await addEntry(pack, CHECKSUMS_ENTRY, Buffer.from(`${JSON.stringify(checksums, null, 2)}\n`));
    pack.finalize();
    await written;
    await rename(partial, file);
  } catch (err) {
    pack.destroy(err as Error);
    await written.catch(() => {});
    await rm(partial, { force: true });
    throw err;
  } finally {
    await rm(spool, { recursive: true, force: true });
  }
  return { file, bytes: (await stat(file)).size, manifest, checksums, seconds: (performance.now() - started) / 1000 };
}

async function holdsProject(db: Db, project: string): Promise<boolean> {
  for (const table of EXPORTED_TABLES) if (await holdsRows(db, table, project)) return true;
  return false;
}

/** Writes `table`'s rows (of `projects`, or all) to `path` as JSON Lines, checking them as they go. */
async function spoolTable(db: Db, table: TransferTable, path: string, projects: string[] | null, opts: ExportOptions) {
  const out = createWriteStream(path);
  const hash = createHash('sha256');
  let bytes = 0;
  const total = (await Promise.all((projects ?? [undefined]).map((p) => countRows(db, table, p)))).reduce((a, b) => a + b, 0);
  const progress = tableProgress(opts, 'export', table.name, total);
  let done = 0;
  const write = async (rows: Record<string, unknown>[]) => {
    let chunk = '';
    for (const row of rows) chunk += `${encodeLine(table, row)}\n`;
    hash.update(chunk);
    bytes += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await once(out, 'drain');
    done += rows.length;
    progress.rows(done);
  };
  const checks: TableCheck[] = [];
  try {
    for (const projectId of projects ?? [undefined]) {
      const batchSize = opts.batchSize ?? DEFAULT_BATCH_SIZE;
      checks.push(await checkTable(db, table, { projectId, batchSize, signal: opts.signal, onBatch: write }));
    }
  } finally {
    await closeStream(out);
  }
  progress.end(done);
  return { check: sumChecks(checks), bytes, sha256: hash.digest('hex') };
}

async function closeStream(out: WriteStream): Promise<void> {
  if (out.closed) return;
  out.end();
  await once(out, 'close');
}

function addEntry(pack: Pack, name: string, content: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    pack.entry({ name, size: content.byteLength, mode: 0o644, mtime: new Date() }, content, (err) => (err ? reject(err) : resolve()));
  });
}

async function addFileEntry(pack: Pack, name: string, path: string, size: number): Promise<void> {
  let entry!: ReturnType<Pack['entry']>;
  const added = new Promise<void>((resolve, reject) => {
    entry = pack.entry({ name, size, mode: 0o644, mtime: new Date() }, (err) => (err ? reject(err) : resolve()));
  });
  for await (const chunk of createReadStream(path)) if (!entry.write(chunk)) await once(entry, 'drain');
  entry.end(undefined);
  await added;
}
