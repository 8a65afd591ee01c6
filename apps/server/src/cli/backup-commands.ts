// `weft backup --out FILE` and `weft restore --from FILE`: a consistent copy of the configured
// database while the server runs, and its restore into an empty database. SQLite through SQLite's
// backup API (@weft/store's backup/); PostgreSQL through pg_dump, run when it is on the PATH, and
// pg_restore, which the README's Backups section shows. Added to the `weft` program by
// cli/program.ts; progress, results and exit codes as for export/import/copy (transfer-commands.ts).
import { existsSync, openSync, readSync, closeSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import {
  backupSqlite,
  fileSha256,
  parseDatabaseUrl,
  restoreSqlite,
  type PageProgress,
  type TransferOptions,
  type TransferPhase,
} from '@weft/store';
import type { CliIo } from '../auth/cli.ts';
import { loadConfig } from '../config.ts';
import { assertReadable, describeDatabase, run, type Context } from './transfer-commands.ts';
import { bytes } from './transfer-report.ts';
import { pgCommands, pgDumpVersion, runPgDump } from './pg-dump.ts';

/** The transfer progress reporter, fed SQLite's page counts. */
function pageProgress(phase: TransferPhase, t: TransferOptions): PageProgress {
  return (state, done, total) => t.onProgress?.({ phase, table: 'database', state: state === 'pages' ? 'rows' : state, done, total });
}

/** The first bytes of a file: what kind of backup it is. */
function magic(file: string): string {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(16);
    return head.subarray(0, readSync(fd, head, 0, 16, 0)).toString('latin1');
  } finally {
    closeSync(fd);
  }
}

async function backupPostgres(ctx: Context, url: string, file: string): Promise<string> {
  const commands = pgCommands(url, file);
  const version = pgDumpVersion(ctx.env);
  if (version === undefined) {
    throw new Error(
      `a PostgreSQL database is backed up with pg_dump, which is not on the PATH here. Install the PostgreSQL client tools, or run:\n` +
        `  ${commands.dump}\nand restore with:\n  ${commands.restore}\n(README: Backups)`,
    );
  }
  ctx.io.stderr.write(`Running ${version} (custom format) on ${describeDatabase(url, '.')}\n`);
  await runPgDump(url, file, ctx.io, ctx.env);
  const size = (await stat(file)).size;
  return (
    `Backed up ${describeDatabase(url, '.')} to ${file} with pg_dump (custom format): ${bytes(size)}.\n` +
    `SHA-256: ${await fileSha256(file)}\n` +
    `Restore it into an empty database with:\n  ${commands.restore}\nthen run \`weft migrate\` against that database (README: Backups).\n`
  );
}

/** Adds `backup` and `restore` to the `weft` program; each action hands its exit code to `done`. */
export function addBackupCommands(weft: Command, io: CliIo, done: (code: number) => void, env: NodeJS.ProcessEnv = process.env): void {
  const ctx: Context = { io, env };
  const cwd = env.WEFT_CWD || process.cwd();

  weft
    .command('backup')
    .description(
      'write a consistent copy of the configured database (DATABASE_URL) while the server keeps running: ' +
        "SQLite through SQLite's online backup API (one file, checked with integrity_check); PostgreSQL through pg_dump --format=custom",
    )
    .requiredOption('--out <file>', 'the backup file to write')
    .option('--force', 'overwrite --out if it exists')
    .addHelpText(
      'after',
      '\nExamples:\n  weft backup --out backups/weft-$(date -u +%Y%m%d-%H%M%S).sqlite\n  DATABASE_URL=postgres://weft@db:5432/weft weft backup --out weft.dump\n',
    )
    .action(async (opts: { out: string; force?: boolean }) => {
      const file = resolve(cwd, opts.out);
      if (existsSync(file) && !opts.force) {
        io.stderr.write(`Error: ${file} exists: name another file with --out, or replace it with --force.\n`);
        return done(1);
      }
      done(
        await run(ctx, 'no backup was written (the partial file was removed).', async (t) => {
          const config = loadConfig(env);
          const target = parseDatabaseUrl(config.databaseUrl, config.dataDir);
          if (target.kind === 'postgres') return backupPostgres(ctx, target.url, file);
          if (target.path === ':memory:') throw new Error('DATABASE_URL is an in-memory database: there is nothing on disk to back up.');
          assertReadable(config.databaseUrl, config.dataDir);
          const source = describeDatabase(config.databaseUrl, config.dataDir);
          io.stderr.write(`Backing up ${source} → ${file} (online: the server may keep writing)\n`);
          const report = await backupSqlite(target.path, file, { signal: t.signal, onProgress: pageProgress('backup', t) });
          return (
            `Backed up ${source} to ${report.file}: ${bytes(report.bytes)} (${report.pages.toLocaleString('en-US')} pages) in ${report.seconds.toFixed(1)} s.\n` +
            `SHA-256: ${report.sha256}\n` +
            `Checked: integrity_check ok; schema ${report.migrations[report.migrations.length - 1]} (${report.migrations.length} migrations).\n` +
            `Restore it with: DATABASE_URL=sqlite:<a new file> weft restore --from ${report.file}\n`
          );
        }),
      );
    });

  weft
    .command('restore')
    .description(
      'restore a SQLite backup written by `weft backup` into the configured database (DATABASE_URL), which must be empty: ' +
        'checks the file (integrity_check; a newer schema is refused) and migrates an older one forward. Stop the server first.',
    )
    .requiredOption('--from <file>', 'the backup file to restore')
    .addHelpText(
      'after',
      '\nExample:\n  DATABASE_URL=sqlite:data/restored.sqlite weft restore --from backups/weft-20250101-120000.sqlite\n',
    )
    .action(async (opts: { from: string }) => {
      const file = resolve(cwd, opts.from);
      done(
        await run(ctx, 'the restore stopped part-way: delete the target database and rerun.', async (t) => {
          if (!existsSync(file)) throw new Error(`${file}: no such file.`);
          const config = loadConfig(env);
          const target = parseDatabaseUrl(config.databaseUrl, config.dataDir);
          if (magic(file).startsWith('PGDMP')) {
            throw new Error(
              `${file} is a pg_dump archive: restore it with pg_restore into an empty PostgreSQL database (README: Backups).`,
            );
          }
          if (target.kind === 'postgres') {
            throw new Error(
              'a SQLite backup is restored into SQLite: restore it into a new SQLite file (DATABASE_URL=sqlite:<file>), ' +
                'then move it with `weft copy --from sqlite:<file> --to <postgres URL>`.',
            );
          }
          if (target.path === ':memory:') throw new Error('DATABASE_URL is an in-memory database: restore into a file.');
          const where = describeDatabase(config.databaseUrl, config.dataDir);
          io.stderr.write(`Restoring ${file} → ${where}\n`);
          const report = await restoreSqlite(file, target.path, { signal: t.signal, onProgress: pageProgress('restore', t) });
          const migrated = report.migrated.length === 0 ? 'already at this version' : `migrated forward: ${report.migrated.join(', ')}`;
          return (
            `Restored ${file} (schema ${report.schema}) into ${where}: ${report.pages.toLocaleString('en-US')} pages in ${report.seconds.toFixed(1)} s; ${migrated}.\n` +
            'Checked: integrity_check ok. Start the server on it with this DATABASE_URL.\n'
          );
        }),
      );
    });
}
