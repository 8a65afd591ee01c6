// Brings the schema up to date at startup.
//
// Safe when several replicas start at once: on PostgreSQL, Kysely's Migrator holds an advisory
// lock on a dedicated connection and runs the pending migrations in one transaction, so the first
// replica migrates and the others wait, then find nothing pending. SQLite has one connection per
// process (and is single-process by design); its migrations also run in a transaction (see
// open-sqlite.ts), so a failure leaves the schema as it was.
import { Migrator, sql, type Migration } from 'kysely';
import type { Db } from './db.ts';
import { migrationsFor } from './migrations/index.ts';

/** Resolves the names of the migrations it applied, in order (none: the schema was up to date). */
export async function migrateToLatest(db: Db): Promise<string[]> {
  return runMigrations(db, migrationsFor(db.dialect));
}

/** migrateToLatest with an explicit migration list (tests use it to exercise failures). */
export async function runMigrations(db: Db, migrations: Record<string, Migration>): Promise<string[]> {
  const migrator = new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error === undefined) return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  const cause = error instanceof Error ? error.message : JSON.stringify(error);
  const failed = results?.find((r) => r.status === 'Error');
  // Kysely also fails here when the database has a migration this binary does not know (a newer
  // version migrated it): refusing to start beats running against an unknown schema.
  throw new Error(
    failed
      ? `Database migration "${failed.migrationName}" failed on ${db.dialect}; no migration was applied: ${cause}`
      : `Database migration failed on ${db.dialect}: ${cause}`,
    { cause: error },
  );
}

/** How many migrations of this version the database lacks (readiness: 0 once migrated). */
export async function pendingMigrations(db: Db): Promise<number> {
  const migrator = new Migrator({ db: db.kysely, provider: { getMigrations: async () => migrationsFor(db.dialect) } });
  return (await migrator.getMigrations()).filter((m) => m.executedAt === undefined).length;
}

/**
 * migrateToLatest clear of the statement timeout that bounds requests, which a long migration (a
 * table rewritten) must not meet: on PostgreSQL on a pool of its own, opened by `openUntimed`
 * (without that timeout) and closed after. SQLite bounds no statement by time: on `db`, the
 * file's one writer.
 */
export async function migrateToLatestWithoutTimeout(db: Db, openUntimed: () => Promise<Db>): Promise<void> {
  if (db.dialect !== 'postgres') return void (await migrateToLatest(db));
  const own = await openUntimed();
  try {
    await migrateToLatest(own);
  } finally {
    await own.close();
  }
}

/** True when the database has Kysely's table of applied migrations (it was ever migrated). */
export async function hasMigrationTable(db: Db): Promise<boolean> {
  const exists =
    db.dialect === 'postgres'
      ? await sql<{ n: number }>`select count(*)::int as n from information_schema.tables
          where table_schema = current_schema() and table_name = 'kysely_migration'`.execute(db.kysely)
      : await sql<{ n: number }>`select count(*) as n from sqlite_master where type = 'table' and name = 'kysely_migration'`.execute(
          db.kysely,
        );
  return Number(exists.rows[0]?.n ?? 0) !== 0;
}
