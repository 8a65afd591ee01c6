// The export format: a gzip-compressed tarball of
//   manifest.json    first: format version, Weft version, schema (latest migration), project filter,
//                    the tables that follow; read before anything is written, so a tarball from a
//                    newer Weft is refused up front;
//   <table>.jsonl    one per exported table, in insertion order (row-codec.ts: one row a line);
//   checksums.json   last, since it is known only once every row is out: per table the row count
//                    and checksum (table-check.ts), per file its byte count and SHA-256.
// Every part is streamed: no table is ever held whole, in the exporter or the importer.
import { TransferError } from './row-codec.ts';
import type { TableCheck } from './table-check.ts';
import { EXPORTED_TABLES } from './transfer-tables.ts';

export const ARCHIVE_FORMAT = 'weft-export';
/** Raised when a reader of the previous version could not read the tarball correctly. */
export const ARCHIVE_FORMAT_VERSION = 1;
export const MANIFEST_ENTRY = 'manifest.json';
export const CHECKSUMS_ENTRY = 'checksums.json';
export const tableEntry = (table: string): string => `${table}.jsonl`;

export interface ArchiveManifest {
  format: typeof ARCHIVE_FORMAT;
  formatVersion: number;
  /** The Weft that wrote it. */
  weftVersion: string;
  /** The latest migration of the database it was exported from. */
  schema: string;
  createdAt: string;
  /** The projects exported; null: every project. */
  projects: string[] | null;
  /** The `<table>.jsonl` entries that follow, in order. */
  tables: string[];
  /** What an export never holds, for whoever reads the tarball. */
  excluded: Record<string, string>;
}

export interface ArchiveChecksums {
  tables: Record<string, TableCheck>;
  files: Record<string, { bytes: number; sha256: string }>;
}

/** Checks a manifest against what this version can import; throws a TransferError saying why not. */
export function parseManifest(text: string, knownMigrations: readonly string[], file: string): ArchiveManifest {
  let manifest: Partial<ArchiveManifest>;
  try {
    manifest = JSON.parse(text) as Partial<ArchiveManifest>;
  } catch {
    throw new TransferError(`${file}: its manifest.json is not JSON: not a Weft export, or a damaged one.`);
  }
  if (manifest.format !== ARCHIVE_FORMAT || typeof manifest.formatVersion !== 'number') {
    throw new TransferError(`${file} is not a Weft export (its manifest.json does not say "format": "${ARCHIVE_FORMAT}").`);
  }
  if (manifest.formatVersion > ARCHIVE_FORMAT_VERSION) {
    throw new TransferError(
      `${file} was written by Weft ${manifest.weftVersion ?? '(unknown)'} in export format ${manifest.formatVersion}; ` +
        `this Weft reads format ${ARCHIVE_FORMAT_VERSION}: import it with a Weft at least as new.`,
    );
  }
  const latest = knownMigrations[knownMigrations.length - 1];
  if (typeof manifest.schema !== 'string' || !knownMigrations.includes(manifest.schema)) {
    throw new TransferError(
      `${file} was exported from a database at schema "${String(manifest.schema)}", newer than this Weft's latest ("${latest}"): ` +
        `import it with Weft ${manifest.weftVersion ?? 'of that version'} or newer.`,
    );
  }
  const exportable = new Set(EXPORTED_TABLES.map((t) => t.name));
  const tables = Array.isArray(manifest.tables) ? manifest.tables : [];
  const unknown = tables.filter((t) => !exportable.has(t));
  if (unknown.length > 0) throw new TransferError(`${file} holds tables this Weft does not import: ${unknown.join(', ')}.`);
  return { ...manifest, tables } as ArchiveManifest;
}

/** A checksums.json read back; throws a TransferError when it is not one. */
export function parseChecksums(text: string, file: string): ArchiveChecksums {
  try {
    const parsed = JSON.parse(text) as ArchiveChecksums;
    if (typeof parsed.tables === 'object' && typeof parsed.files === 'object') return parsed;
  } catch {
    // Reported below.
  }
  throw new TransferError(`${file}: its checksums.json is damaged.`);
}
