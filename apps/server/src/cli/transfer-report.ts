// What `weft export | import | copy` print when done (stdout): a table per database table and a
// closing line with totals, the verification and the rate.
import type { CopyReport, ExportReport, ImportReport, TableCheck } from '@weft/store';

const count = (n: number) => n.toLocaleString('en-US');

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} kB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

function digestsLine(checks: TableCheck[]): string {
  const checked = checks.reduce((n, c) => n + (c.digests?.checked ?? 0), 0);
  const mismatched = checks.reduce((n, c) => n + (c.digests?.mismatched ?? 0), 0);
  if (mismatched === 0) return `${count(checked)} content digests recomputed, all match`;
  return (
    `${count(checked)} content digests recomputed; ${count(mismatched)} differ from their stored digest in both databases alike ` +
    '(values stored that way, e.g. with NaN, which is kept as null)'
  );
}

function rate(rows: number, seconds: number): string {
  return `${count(rows)} rows in ${seconds.toFixed(1)} s (${count(Math.round(rows / Math.max(seconds, 0.001)))} rows/s)`;
}

export function describeExport(report: ExportReport, database: string): string {
  const tables = Object.entries(report.checksums.tables);
  const total = tables.reduce((n, [, c]) => n + c.rows, 0);
  const projects = report.manifest.projects ? report.manifest.projects.join(', ') : 'every project';
  return (
    `${table(
      ['TABLE', 'ROWS'],
      tables.map(([name, c]) => [name, count(c.rows)]),
    )}\n\n` +
    `Exported ${projects} from ${database} to ${report.file} (${bytes(report.bytes)}, schema ${report.manifest.schema}): ` +
    `${rate(total, report.seconds)}.\nNot exported: API keys (\`weft copy\` moves them with the deployment) and caches.\n`
  );
}

export function describeImport(report: ImportReport, file: string, database: string): string {
  const total = report.tables.reduce((n, t) => n + t.rows, 0);
  const inserted = report.tables.reduce((n, t) => n + t.inserted, 0);
  return (
    `${table(
      ['TABLE', 'ROWS', 'NEW'],
      report.tables.map((t) => [t.name, count(t.rows), count(t.inserted)]),
    )}\n\n` +
    `Imported ${file} (Weft ${report.manifest.weftVersion}, schema ${report.manifest.schema}) into ${database}: ` +
    `${rate(total, report.seconds)}, ${count(inserted)} new (the others were there already).\n` +
    `Verified: the counts and checksums of ${report.projects.length} project(s) match the export.\n`
  );
}

export function describeCopy(report: CopyReport, source: string, target: string): string {
  const total = report.tables.reduce((n, t) => n + t.rows, 0);
  const inserted = report.tables.reduce((n, t) => n + t.inserted, 0);
  return (
    `${table(
      ['TABLE', 'ROWS', 'NEW'],
      report.tables.map((t) => [t.name, count(t.rows), count(t.inserted)]),
    )}\n\n` +
    `Copied ${source} → ${target}: ${rate(total, report.seconds)} (verification included), ${count(inserted)} new.\n` +
    `Verified: counts and checksums of ${report.tables.length} tables match; ${digestsLine(report.tables.map((t) => t.check))}.\n` +
    `Not copied: ${report.skipped.map((s) => `${s.name} (${s.reason})`).join(', ')}.\n`
  );
}
