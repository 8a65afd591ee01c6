// Which schema a database is at, before any row moves. Rows are only moved between databases at
// this version's latest migration: a source behind it has other columns (migrate it first), and
// a database ahead of it (a newer Weft migrated it) has tables or columns this version would drop
// silently. The target of a copy or an import is migrated to latest, which the command implies.
import { sql } from 'kysely';
import type { Db } from '../db/db.ts';
import { hasMigrationTable, runMigrations } from '../db/migrate.ts';
import { migrationsFor } from '../db/migrations/index.ts';
import { TransferError } from './row-codec.ts';

/** This version's migrations, in order; the last one names the schema an export is made at. */
export function knownMigrations(db: Pick<Db, 'dialect'>): string[] {
  return Object.keys(migrationsFor(db.dialect));
}

/** The migrations applied to `db`, in name order; undefined when it was never migrated. */
export async function appliedMigrations(db: Db): Promise<string[] | undefined> {
  if (!(await hasMigrationTable(db))) return undefined;
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db.kysely);
  return rows.map((r) => r.name);
}

function unknownOnes(applied: readonly string[], known: readonly string[]): string[] {
  const set = new Set(known);
  return applied.filter((name) => !set.has(name));
}

/** Throws unless `db` is exactly at this version's latest migration. `role` names it in messages. */
export async function assertCurrentSchema(db: Db, role: string): Promise<void> {
  const applied = await appliedMigrations(db);
  const known = knownMigrations(db);
  if (applied === undefined || applied.length === 0) {
    throw new TransferError(`The ${role} database holds no Weft schema (never migrated): nothing to read.`);
  }
  const unknown = unknownOnes(applied, known);
  if (unknown.length > 0) {
    throw new TransferError(
      `The ${role} database was migrated by a newer Weft (it has ${unknown.join(', ')}, unknown to this version): ` +
        'run this command with that newer Weft.',
    );
  }
  const pending = known.filter((name) => !applied.includes(name));
  if (pending.length > 0) {
    throw new TransferError(
      `The ${role} database lacks ${pending.length} migration(s) of this version (${pending.join(', ')}): ` +
        'run `weft migrate` against it first (with DATABASE_URL set to it).',
    );
  }
}

/** Brings a target database to this version's latest migration; refuses one a newer Weft migrated. */
export async function prepareTarget(db: Db, role = 'target'): Promise<void> {
  const unknown = unknownOnes((await appliedMigrations(db)) ?? [], knownMigrations(db));
  if (unknown.length > 0) {
    throw new TransferError(
      `The ${role} database was migrated by a newer Weft (it has ${unknown.join(', ')}, unknown to this version): ` +
        'run this command with that newer Weft.',
    );
  }
  await runMigrations(db, migrationsFor(db.dialect));
}
