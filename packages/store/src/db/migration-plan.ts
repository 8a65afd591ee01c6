// What `weft migrate status` and `weft migrate --dry-run` show: the migrations this version knows,
// which the database has applied, and the SQL the pending ones would run. The SQL is compiled by
// running each pending migration against a Kysely whose driver executes nothing (Kysely's
// DummyDriver) with the database's own SQL dialect, so nothing reaches the database; the
// migrations only change the schema (no migration reads rows to decide what to do), so this is
// the SQL they send.
import {
  DummyDriver,
  Kysely,
  Migrator,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
} from 'kysely';
import type { Db } from './db.ts';
import { migrationsFor } from './migrations/index.ts';

export interface MigrationState {
  name: string;
  /** When the database applied it; undefined: pending. */
  executedAt: Date | undefined;
}

export async function migrationStatus(db: Db): Promise<MigrationState[]> {
  const migrator = new Migrator({ db: db.kysely, provider: { getMigrations: async () => migrationsFor(db.dialect) } });
  return (await migrator.getMigrations()).map((m) => ({ name: m.name, executedAt: m.executedAt }));
}

/** The pending migrations in order, each with the statements it would run (`;`-terminated). */
export async function pendingMigrationSql(db: Db): Promise<{ name: string; statements: string[] }[]> {
  const migrations = migrationsFor(db.dialect);
  const pending = (await migrationStatus(db)).filter((m) => m.executedAt === undefined);
  const sent: CompiledQuery[] = [];
  const pg = db.dialect === 'postgres';
  const compiler = new Kysely<unknown>({
    dialect: {
      createAdapter: () => (pg ? new PostgresAdapter() : new SqliteAdapter()),
      createDriver: () => new DummyDriver(),
      createIntrospector: (k) => (pg ? new PostgresIntrospector(k) : new SqliteIntrospector(k)),
      createQueryCompiler: () => (pg ? new PostgresQueryCompiler() : new SqliteQueryCompiler()),
    },
    log: (event) => void sent.push(event.query),
  });
  const plan = [];
  try {
    for (const { name } of pending) {
      sent.length = 0;
      await migrations[name]!.up(compiler);
      plan.push({
        name,
        statements: sent.map((q) => `${q.sql};${q.parameters.length > 0 ? ` -- parameters: ${JSON.stringify(q.parameters)}` : ''}`),
      });
    }
  } finally {
    await compiler.destroy();
  }
  return plan;
}
