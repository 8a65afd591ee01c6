// `weft migrate` (apply, saying what was applied or that the schema is up to date),
// `weft migrate --dry-run` (the SQL the pending migrations would run, as a script on stdout; nothing
// is executed) and `weft migrate status` (every migration, applied or pending).
import { migrateToLatest, migrationStatus, openDatabase, pendingMigrationSql, type Db } from '@weft/store';
import type { CliIo } from '../auth/cli.ts';
import type { Config } from '../config.ts';
import { columns } from './columns.ts';
import { describeDatabase } from './transfer-commands.ts';

async function withDb<T>(config: Config, use: (db: Db) => Promise<T>): Promise<T> {
  // Migrations may rebuild large tables: no statement deadline.
  const db = await openDatabase(config.databaseUrl, { dataDir: config.dataDir, pool: { statementTimeoutMs: 0 } });
  try {
    return await use(db);
  } finally {
    await db.close();
  }
}

const where = (config: Config) => describeDatabase(config.databaseUrl, config.dataDir);
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export async function migrateCommand(config: Config, opts: { dryRun?: boolean | undefined }, io: CliIo): Promise<number> {
  const database = where(config);
  if (opts.dryRun) {
    const plan = await withDb(config, pendingMigrationSql);
    for (const { name, statements } of plan)
      io.stdout.write(`-- ${name}\n${statements.length > 0 ? statements.join('\n') : '-- (no statement on this database)'}\n\n`);
    io.stderr.write(
      plan.length === 0
        ? `${database}: up to date; nothing to run\n`
        : `${database}: ${plural(plan.length, 'pending migration')}; nothing was run (dry run)\n`,
    );
    return 0;
  }
  const applied = await withDb(config, migrateToLatest);
  for (const name of applied) io.stdout.write(`applied ${name}\n`);
  io.stdout.write(
    applied.length === 0 ? `${database}: up to date\n` : `${database}: ${plural(applied.length, 'migration')} applied, up to date\n`,
  );
  return 0;
}

export async function migrateStatusCommand(config: Config, io: CliIo): Promise<number> {
  const states = await withDb(config, migrationStatus);
  const at = (d: Date) => `${d.toISOString().slice(0, 19).replace('T', ' ')}Z`;
  const rows = states.map((m) => [m.executedAt ? 'applied' : 'pending', m.name, m.executedAt ? at(m.executedAt) : '-']);
  io.stdout.write(columns([['STATE', 'MIGRATION', 'APPLIED AT'], ...rows]));
  const pending = states.filter((m) => !m.executedAt).length;
  io.stdout.write(`${where(config)}: ${states.length - pending} applied, ${pending} pending\n`);
  return 0;
}
