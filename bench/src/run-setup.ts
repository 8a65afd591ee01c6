// What every bench run starts with, shared by `pnpm bench` (main.ts) and `pnpm bench:check`
// (check.ts): the database (SQLite's seeded file, or DATABASE_URL's PostgreSQL), credentials,
// and the scenarios' context.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { say } from './progress.ts';
import type { RunContext } from './scenarios/context.ts';
import { preparePostgres, prepareSqlite } from './seed/prepare.ts';
import { FULL_SEED, QUICK_SEED } from './seed/spec.ts';
import { seedDigests } from './seed/verify.ts';
import { writeCredentials } from './servers/weft.ts';

/** Scenarios that read nothing of the seeded data (they write what they read). */
const SEEDLESS = new Set(['router', 'queue-items-query', 'eval-results', 'web-first-load']);

export interface BenchRun {
  ctx: RunContext;
  /** Removes the run's scratch directory. */
  close: () => void;
}

export async function openRun(opts: { quick: boolean; only: readonly string[] | undefined; seconds?: number }): Promise<BenchRun> {
  const envUrl = process.env.DATABASE_URL ?? '';
  const dialect = /^postgres(ql)?:\/\//.test(envUrl) ? 'postgres' : 'sqlite';
  if (dialect === 'sqlite' && envUrl) say(`DATABASE_URL is not PostgreSQL: the SQLite run uses its own seeded file`);
  const spec = opts.quick ? QUICK_SEED : FULL_SEED;
  const runDir = mkdtempSync(join(tmpdir(), 'weft-bench-'));
  const close = () => rmSync(runDir, { recursive: true, force: true });
  try {
    say(`weft bench on ${dialect}${opts.quick ? ' (quick seed)' : ''}`);
    // The router and queue scenarios read nothing of the seed: alone, they run on an empty database.
    const seedless = opts.only !== undefined && opts.only.length > 0 && opts.only.every((id) => SEEDLESS.has(id));
    const db = seedless
      ? { url: dialect === 'postgres' ? envUrl : `sqlite:${join(runDir, 'empty.sqlite')}`, digests: seedDigests(spec) }
      : dialect === 'postgres'
        ? await preparePostgres(envUrl, spec)
        : await prepareSqlite(spec, runDir);
    const ctx: RunContext = {
      dialect,
      databaseUrl: db.url,
      runDir,
      creds: writeCredentials(runDir),
      spec,
      digests: db.digests,
      quick: opts.quick,
      seconds: opts.seconds ?? (opts.quick ? 3 : 8),
    };
    return { ctx, close };
  } catch (err) {
    close();
    throw err;
  }
}
