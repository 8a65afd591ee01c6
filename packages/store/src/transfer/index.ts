// Moving data between databases and through files: `weft export`, `weft import`, `weft copy`.
// One row mover over the whole schema (transfer-tables.ts lists every table), used by all three.
export { exportArchive, type ExportOptions, type ExportReport } from './export-archive.ts';
export { importArchive, type ImportReport } from './import-archive.ts';
export { copyDatabase, CopyVerificationError, type CopiedTable, type CopyOptions, type CopyReport } from './copy-database.ts';
export { ARCHIVE_FORMAT_VERSION, type ArchiveChecksums, type ArchiveManifest } from './archive-format.ts';
export { DEFAULT_BATCH_SIZE, type ProgressListener, type TransferOptions, type TransferPhase, type TransferProgress } from './progress.ts';
export { TransferError } from './row-codec.ts';
export type { TableCheck } from './table-check.ts';
export { COPIED_TABLES, EXPORTED_TABLES, TRANSFER_TABLES, type TransferScope, type TransferTable } from './transfer-tables.ts';
