// `weft export`, `weft import <file>` and `weft copy --from <url> --to <url>`: the command line of
// the store's row mover (packages/store/src/transfer/). Added to the `weft` program by
// cli/program.ts; output goes through `io` (results on stdout, progress on stderr: a bar on a
// terminal, plain lines otherwise). Usage errors exit 2 (commander), failures print what to do
// and exit 1, an interruption (Ctrl-C) stops after the current batch and exits 130.
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import {
  copyDatabase,
  DEFAULT_BATCH_SIZE,
  exportArchive,
  importArchive,
  openDatabase,
  parseDatabaseUrl,
  redactUrl,
  type Db,
  type TransferOptions,
} from '@weft/store';
import type { CliIo } from '../auth/cli.ts';
import { loadConfig } from '../config.ts';
import { onStopSignals } from '../stop-signals.ts';
import { VERSION } from '../version.ts';
import { describeExport, describeImport, describeCopy } from './transfer-report.ts';
import { progressReporter } from './transfer-progress.ts';

const PROJECT_ID = /^[^/\s]+\/[^/\s]+$/;

function projectArg(value: string, previous: string[] = []): string[] {
  if (!PROJECT_ID.test(value) || value.length > 512) throw new InvalidArgumentError('expected <entity>/<project>, e.g. acme/agents.');
  return [...previous, value];
}

function batchSizeArg(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 100_000) throw new InvalidArgumentError('expected a whole number of rows from 1 to 100000.');
  return n;
}

/** A database URL as given on the command line: relative SQLite paths mean the caller's directory. */
function databaseArg(cwd: string) {
  return (value: string): string => {
    try {
      const target = parseDatabaseUrl(value);
      if (target.kind === 'sqlite' && target.path !== ':memory:')
        return `sqlite:${isAbsolute(target.path) ? target.path : resolve(cwd, target.path)}`;
      return value;
    } catch (err) {
      throw new InvalidArgumentError((err as Error).message);
    }
  };
}

/** Where a database URL points, for messages: a file path, or the URL without its password. */
export function describeDatabase(url: string | undefined, dataDir: string): string {
  const target = parseDatabaseUrl(url, dataDir);
  return target.kind === 'sqlite' ? `sqlite:${target.path}` : redactUrl(target.url);
}

function timestamp(date = new Date()): string {
  return date.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
}

function defaultExportFile(projects: readonly string[]): string {
  const what = projects.length === 1 ? (projects[0] as string).replace(/[^A-Za-z0-9._-]+/g, '-') : 'export';
  return `weft-${what}-${timestamp()}.tar.gz`;
}

export interface Context {
  io: CliIo;
  env: NodeJS.ProcessEnv;
}

/**
 * Runs one transfer with progress on stderr and Ctrl-C/SIGTERM stopping it between batches;
 * resolves the exit code. `interrupted` says what an interruption leaves behind.
 */
export async function run(ctx: Context, interrupted: string, work: (opts: TransferOptions) => Promise<string>): Promise<number> {
  const stop = new AbortController();
  const off = onStopSignals({
    graceful: () => stop.abort(),
    // A later signal: the operator does not want to wait; its default action ends the process.
    immediate: (signal) => {
      off();
      process.kill(process.pid, signal);
    },
  });
  const progress = progressReporter(ctx.io.stderr);
  try {
    ctx.io.stdout.write(await work({ signal: stop.signal, onProgress: progress.listener }));
    return 0;
  } catch (err) {
    progress.stop();
    if (stop.signal.aborted) {
      ctx.io.stderr.write(`Interrupted: ${interrupted}\n`);
      return 130;
    }
    // Operator mistakes and unreachable databases read best as their message alone.
    ctx.io.stderr.write(`Error: ${(err as Error).message}\n`);
    return 1;
  } finally {
    off();
  }
}

/** A database to read must exist: opening a missing SQLite file would create an empty one. */
export function assertReadable(url: string | undefined, dataDir: string): void {
  const target = parseDatabaseUrl(url, dataDir);
  if (target.kind === 'sqlite' && target.path !== ':memory:' && !existsSync(target.path)) {
    throw new Error(`${target.path}: no such SQLite database (set DATABASE_URL, or --from for copy).`);
  }
}

async function withDatabase<T>(url: string | undefined, dataDir: string, use: (db: Db) => Promise<T>): Promise<T> {
  const db = await openDatabase(url, { dataDir });
  try {
    return await use(db);
  } finally {
    await db.close();
  }
}

/** Adds `export`, `import` and `copy` to the `weft` program; each action hands its exit code to `done`. */
export function addTransferCommands(weft: Command, io: CliIo, done: (code: number) => void, env: NodeJS.ProcessEnv = process.env): void {
  const ctx: Context = { io, env };
  const cwd = env.WEFT_CWD || process.cwd();

  weft
    .command('export')
    .description(
      'write projects (default: every project) of the configured database (DATABASE_URL) to a .tar.gz of JSON Lines: ' +
        'objects, tables, calls, files, feedback, annotation queues, models, checkpoints, trajectory logs (never API keys)',
    )
    .option('--project <entity/project>', 'a project to export; repeat it for several (default: every project)', projectArg)
    .option('--out <file>', 'the tarball to write (default: weft-<project or "export">-<UTC time>.tar.gz here)')
    .option('--force', 'overwrite --out if it exists')
    .option('--batch-size <rows>', `rows read per batch (default ${DEFAULT_BATCH_SIZE})`, batchSizeArg)
    .addHelpText('after', '\nExamples:\n  weft export\n  weft export --project acme/agents --out agents.tar.gz\n')
    .action(async (opts: { project?: string[]; out?: string; force?: boolean; batchSize?: number }) => {
      const projects = opts.project ?? [];
      const file = resolve(cwd, opts.out ?? defaultExportFile(projects));
      if (existsSync(file) && !opts.force) {
        io.stderr.write(`Error: ${file} exists: name another file with --out, or replace it with --force.\n`);
        return done(1);
      }
      done(
        await run(ctx, 'nothing was written (the partial tarball was removed).', async (t) => {
          const config = loadConfig(env);
          assertReadable(config.databaseUrl, config.dataDir);
          const report = await withDatabase(config.databaseUrl, config.dataDir, (db) =>
            exportArchive(db, file, { ...t, projects, batchSize: opts.batchSize, weftVersion: VERSION }),
          );
          return describeExport(report, describeDatabase(config.databaseUrl, config.dataDir));
        }),
      );
    });

  weft
    .command('import')
    .description(
      'load a tarball written by `weft export` into the configured database (DATABASE_URL, migrated first); ' +
        'rows already there are kept, so a rerun continues an interrupted import',
    )
    .argument('<file>', 'the .tar.gz to import')
    .option('--batch-size <rows>', `rows written per batch (default ${DEFAULT_BATCH_SIZE})`, batchSizeArg)
    .addHelpText('after', '\nExample:\n  DATABASE_URL=postgres://weft@db:5432/weft weft import weft-export-20250101-120000.tar.gz\n')
    .action(async (input: string, opts: { batchSize?: number }) => {
      const file = resolve(cwd, input);
      done(
        await run(ctx, 'the rows imported so far are kept; rerun the same command to finish.', async (t) => {
          const config = loadConfig(env);
          const report = await withDatabase(config.databaseUrl, config.dataDir, (db) =>
            importArchive(db, file, { ...t, batchSize: opts.batchSize }),
          );
          return describeImport(report, file, describeDatabase(config.databaseUrl, config.dataDir));
        }),
      );
    });

  weft
    .command('copy')
    .description(
      'copy a whole deployment to another database (e.g. SQLite → PostgreSQL) in batches, then verify it ' +
        '(counts, checksums, digests); resumable: rerun after an interruption. Stop the servers writing to --from first.',
    )
    .option('--from <url>', 'the database to read (default: DATABASE_URL, or the default SQLite file)', databaseArg(cwd))
    .requiredOption('--to <url>', 'the database to write (migrated first), e.g. postgres://weft@db:5432/weft', databaseArg(cwd))
    .option('--batch-size <rows>', `rows per batch (default ${DEFAULT_BATCH_SIZE})`, batchSizeArg)
    .option('--no-resume', "read every source row again instead of starting each table after the target's last row")
    .addHelpText('after', '\nExample:\n  weft copy --from sqlite:data/weft.sqlite --to postgres://weft@db.internal:5432/weft\n')
    .action(async (opts: { from?: string; to: string; batchSize?: number; resume: boolean }) => {
      done(
        await run(ctx, 'the rows copied so far are kept; rerun the same command to continue where it stopped.', async (t) => {
          const config = loadConfig(env);
          const from = opts.from ?? config.databaseUrl;
          const [source, target] = [describeDatabase(from, config.dataDir), describeDatabase(opts.to, config.dataDir)];
          if (source === target) throw new Error(`--from and --to are the same database (${source}).`);
          assertReadable(from, config.dataDir);
          io.stderr.write(`Copying ${source} → ${target}\n`);
          const report = await withDatabase(from, config.dataDir, (src) =>
            withDatabase(opts.to, config.dataDir, (dst) =>
              copyDatabase(src, dst, { ...t, batchSize: opts.batchSize, resume: opts.resume }),
            ),
          );
          return describeCopy(report, source, target);
        }),
      );
    });
}
