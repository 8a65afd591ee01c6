// The database a run measures. SQLite: a seeded file kept under bench/.cache and reused only
// while it verifies against the generator's digests (else seeded again), copied for each run so
// what a run writes (orders, tables, logs) never reaches the next. PostgreSQL: the database of
// DATABASE_URL, seeded when empty, reused when it verifies, refused when it holds anything else.
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrateToLatest, openDatabase } from '@weft/store';
import { sql } from 'kysely';
import { phase, say } from '../progress.ts';
import { seedCalls } from './calls-seed.ts';
import { callsUnseeded } from './calls-verify.ts';
import { seed } from './seed.ts';
import { SEED_VERSION, type SeedSpec } from './spec.ts';
import { isUnseeded, seedDigests, verifySeed, type SeedDigests } from './verify.ts';

const cacheDir = fileURLToPath(new URL('../../.cache/', import.meta.url));

export interface PreparedDatabase {
  url: string;
  digests: SeedDigests;
}

export async function preparePostgres(url: string, spec: SeedSpec): Promise<PreparedDatabase> {
  const digests = seedDigests(spec);
  const db = await openDatabase(url);
  try {
    await migrateToLatest(db);
    if (await isUnseeded(db)) await seed(db, spec);
    else say('reusing the seed already in DATABASE_URL (verifying it)');
    // Scenario 11's calls came later than the rest: a database seeded before them gets them added.
    if (await callsUnseeded(db)) await seedCalls(db, spec);
    const problems = await phase('verifying the seed', () => verifySeed(db, spec, digests));
    if (problems.length > 0) {
      throw new Error(`DATABASE_URL holds data that is not this bench's seed (${problems.join('; ')}): give it a fresh database`);
    }
    // The state autovacuum keeps a production database in: planner statistics, and no dead
    // index entries left by the seed's is_latest updates (a test server may run without it).
    await phase('vacuum analyze', () => sql`vacuum analyze`.execute(db.kysely));
  } finally {
    await db.close();
  }
  return { url, digests };
}

export async function prepareSqlite(spec: SeedSpec, runDir: string): Promise<PreparedDatabase> {
  const digests = seedDigests(spec);
  mkdirSync(cacheDir, { recursive: true });
  const file = join(cacheDir, `seed-v${SEED_VERSION}-${spec.bigRows}.sqlite`);
  if (existsSync(file)) {
    const problems = await checkFile(file, spec, digests);
    if (problems.length === 0) say(`reusing ${file} (verified by digest)`);
    else {
      say(`discarding ${file}: ${problems.join('; ')}`);
      removeSqlite(file);
    }
  }
  if (!existsSync(file)) {
    const partial = `${file}.partial`;
    removeSqlite(partial);
    const db = await openDatabase(`sqlite:${partial}`);
    try {
      await migrateToLatest(db);
      await seed(db, spec);
      await seedCalls(db, spec);
    } finally {
      await db.close();
    }
    const problems = await checkFile(partial, spec, digests);
    if (problems.length > 0) throw new Error(`the seeded file does not verify: ${problems.join('; ')}`);
    renameSync(partial, file);
  }
  const copy = join(runDir, 'weft.sqlite');
  await phase('copying the seeded file for this run', () => Promise.resolve(copyFileSync(file, copy)));
  return { url: `sqlite:${copy}`, digests };
}

async function checkFile(file: string, spec: SeedSpec, digests: SeedDigests): Promise<string[]> {
  const db = await openDatabase(`sqlite:${file}`);
  try {
    // A newer schema (a migration added since the file was seeded) is applied, not a reason to reseed.
    await migrateToLatest(db);
    return await phase('verifying the seeded file', () => verifySeed(db, spec, digests));
  } finally {
    await db.close();
  }
}

function removeSqlite(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
}
