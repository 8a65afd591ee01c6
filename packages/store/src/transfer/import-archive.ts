// `weft import <file>`: loads an export into the configured database. Two streaming passes over
// the tarball: the first checks it whole (manifest, every entry's SHA-256 against checksums.json,
// gzip's own CRC) and writes nothing, so a damaged, truncated or newer tarball is refused before
// a row is written; the second writes the rows in bounded batches with ON CONFLICT DO NOTHING
// (an import run twice, or rerun after an interruption, changes nothing). Then the imported
// projects are read back from the database and compared with the export's checksums.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { TurnClock } from '@weft/core';
import tar, { type Extract } from 'tar-stream';
import type { Db } from '../db/db.ts';
import { CHECKSUMS_ENTRY, MANIFEST_ENTRY, parseChecksums, parseManifest, tableEntry, type ArchiveManifest } from './archive-format.ts';
import { DEFAULT_BATCH_SIZE, tableProgress, type TransferOptions } from './progress.ts';
import { decodeLine, rowBytes, TransferError, type RawRow } from './row-codec.ts';
import { knownMigrations, prepareTarget } from './schema-state.ts';
import { checkTable, compareChecks, sumChecks, type CheckDifference } from './table-check.ts';
import { refreshStatistics, writeBatch } from './table-io.ts';
import { transferTable, type TransferTable } from './transfer-tables.ts';

export interface ImportReport {
  manifest: ArchiveManifest;
  tables: { name: string; rows: number; inserted: number }[];
  /** The projects the tarball held. */
  projects: string[];
  seconds: number;
}

/** A tarball entry as it is read. */
type Entry = Extract extends AsyncIterable<infer E> ? E : never;

const BATCH_BYTES = 16 * 1024 * 1024;
const MAX_METADATA_BYTES = 16 * 1024 * 1024;

export async function importArchive(db: Db, file: string, opts: TransferOptions = {}): Promise<ImportReport> {
  const started = performance.now();
  const { manifest, checksums } = await inspectArchive(file, knownMigrations(db), opts);
  await prepareTarget(db, 'target');

  const batchSize = opts.batchSize ?? DEFAULT_BATCH_SIZE;
  const projects = new Set(manifest.projects ?? []);
  const tables: ImportReport['tables'] = [];
  await readArchive(file, async (name, entry) => {
    const table = tableOf(name);
    if (!table) return;
    const progress = tableProgress(opts, 'import', table.name, checksums.tables[table.name]?.rows);
    let batch: RawRow[] = [];
    let bytes = 0;
    let rows = 0;
    let inserted = 0;
    const flush = async () => {
      opts.signal?.throwIfAborted();
      inserted += await writeBatch(db, table, batch);
      rows += batch.length;
      [batch, bytes] = [[], 0];
      progress.rows(rows);
    };
    let line = 0;
    // Decoding is CPU work (lossless parse of every line): give the event loop its turns.
    const clock = new TurnClock();
    for await (const text of createInterface({ input: Readable.from(entry), crlfDelay: Infinity })) {
      line++;
      if (clock.due) await clock.pass();
      if (text === '') continue;
      let row: RawRow;
      try {
        row = decodeLine(table, text);
      } catch (err) {
        throw new TransferError(`${file}: ${name} line ${line}: ${(err as Error).message}`);
      }
      projects.add(row.project_id as string);
      batch.push(row);
      bytes += rowBytes(row);
      if (batch.length >= batchSize || bytes >= BATCH_BYTES) await flush();
    }
    await flush();
    progress.end(rows);
    tables.push({ name: table.name, rows, inserted });
  });

  await refreshStatistics(db);
  // Read back what the tarball's projects now hold, and compare with what was exported.
  const differences: CheckDifference[] = [];
  for (const name of manifest.tables) {
    const table = transferTable(name) as TransferTable;
    const expected = checksums.tables[name];
    if (!expected) throw new TransferError(`${file}: checksums.json lacks the table ${name}.`);
    const progress = tableProgress(opts, 'verify', name, expected.rows);
    const checks = [];
    for (const projectId of projects) {
      checks.push(await checkTable(db, table, { projectId, batchSize, signal: opts.signal }));
      progress.rows(sumChecks(checks).rows);
    }
    const actual = sumChecks(checks);
    progress.end(actual.rows);
    differences.push(...compareChecks(name, expected, actual, ['export', 'database']));
  }
  if (differences.length > 0) {
    throw new TransferError(
      `The imported projects do not match the export:\n${differences.map((d) => `  - ${d.table}: ${d.what}`).join('\n')}\n` +
        'The database held other data for these projects before the import; import into an empty database, or delete those projects first.',
    );
  }
  return { manifest, tables, projects: [...projects].sort(), seconds: (performance.now() - started) / 1000 };
}

function tableOf(entryName: string): TransferTable | undefined {
  return entryName.endsWith('.jsonl') ? transferTable(entryName.slice(0, -'.jsonl'.length)) : undefined;
}

/** The first pass: checks the whole tarball and returns its manifest and checksums; writes nothing. */
async function inspectArchive(file: string, known: readonly string[], opts: TransferOptions) {
  let manifest: ArchiveManifest | undefined;
  let checksumsText: string | undefined;
  const seen = new Map<string, { bytes: number; sha256: string }>();
  await readArchive(file, async (name, entry) => {
    if (manifest === undefined) {
      if (name !== MANIFEST_ENTRY) throw new TransferError(`${file} is not a Weft export (it does not start with ${MANIFEST_ENTRY}).`);
      manifest = parseManifest(await readText(entry, file), known, file);
      return;
    }
    if (name === CHECKSUMS_ENTRY) {
      checksumsText = await readText(entry, file);
      return;
    }
    const table = tableOf(name);
    if (!table || !manifest.tables.includes(table.name) || seen.has(name) || checksumsText !== undefined) {
      throw new TransferError(`${file} holds an unexpected entry "${name}": not a tarball written by \`weft export\`.`);
    }
    const hash = createHash('sha256');
    let bytes = 0;
    let lines = 0;
    const progress = tableProgress(opts, 'check', table.name, undefined);
    for await (const chunk of entry as AsyncIterable<Buffer>) {
      hash.update(chunk);
      bytes += chunk.byteLength;
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      progress.rows(lines);
    }
    progress.end(lines);
    seen.set(name, { bytes, sha256: hash.digest('hex') });
  });
  if (manifest === undefined) throw new TransferError(`${file} is empty: not a Weft export.`);
  if (checksumsText === undefined) throw new TransferError(`${file} is incomplete: it ends before ${CHECKSUMS_ENTRY} (a truncated copy?).`);
  const checksums = parseChecksums(checksumsText, file);
  for (const table of manifest.tables) {
    const name = tableEntry(table);
    const expected = checksums.files[name];
    const actual = seen.get(name);
    if (!actual || !expected) throw new TransferError(`${file} is incomplete: ${name} is missing.`);
    if (actual.bytes !== expected.bytes || actual.sha256 !== expected.sha256) {
      throw new TransferError(`${file} is damaged: ${name} does not match its checksum (nothing was imported).`);
    }
  }
  return { manifest: manifest, checksums };
}

/** Streams the tarball's entries, in order, to `onEntry`; whatever it leaves unread is skipped. */
async function readArchive(file: string, onEntry: (name: string, entry: Entry) => Promise<void>): Promise<void> {
  const extract = tar.extract();
  const reading = pipeline(createReadStream(file), createGunzip(), extract);
  reading.catch(() => {}); // its failure surfaces through the entries below, and is awaited at the end
  try {
    for await (const entry of extract) {
      await onEntry(entry.header.name, entry);
      entry.resume();
    }
    await reading;
  } catch (err) {
    extract.destroy();
    throw archiveError(file, err);
  }
}

function archiveError(file: string, err: unknown): Error {
  if (err instanceof TransferError) return err;
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'ENOENT') return new TransferError(`${file}: no such file.`);
  if (e.code === 'EISDIR' || e.code === 'EACCES') return new TransferError(`${file}: ${e.message}`);
  if (typeof e.code === 'string' && e.code.startsWith('Z_')) {
    return new TransferError(`${file} is damaged or incomplete, or not a .tar.gz (${e.message}).`);
  }
  if (/tar|header/i.test(e.message ?? '')) return new TransferError(`${file} is not a tarball written by \`weft export\` (${e.message}).`);
  return err as Error;
}

async function readText(entry: Entry, file: string): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of entry as AsyncIterable<Buffer>) {
    bytes += chunk.byteLength;
    if (bytes > MAX_METADATA_BYTES) throw new TransferError(`${file}: ${entry.header.name} is too large to be a Weft export's.`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
