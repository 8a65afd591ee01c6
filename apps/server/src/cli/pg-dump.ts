// `weft backup` on PostgreSQL: pg_dump in its custom format (restored with pg_restore), run when
// it is on the PATH. The password goes to pg_dump in PGPASSWORD, never on its command line, where
// any user of the machine could read it (ps).
import { spawn, spawnSync } from 'node:child_process';
import { rename, rm } from 'node:fs/promises';
import type { CliIo } from '../auth/cli.ts';

/** pg_dump's version line, or undefined when it is not on the PATH. */
export function pgDumpVersion(env: NodeJS.ProcessEnv): string | undefined {
  const result = spawnSync('pg_dump', ['--version'], { env, encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/** The URL without its password, and the environment carrying the password instead. */
export function pgConnection(url: string, env: NodeJS.ProcessEnv): { dbname: string; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  const password = decodeURIComponent(u.password);
  u.password = '';
  return { dbname: u.toString(), env: password ? { ...env, PGPASSWORD: password } : env };
}

/** What to run by hand, for messages: the URL without its password (PGPASSWORD or ~/.pgpass supply it). */
export function pgCommands(url: string, file: string): { dump: string; restore: string } {
  const where = pgConnection(url, {}).dbname;
  return {
    dump: `pg_dump --format=custom --file=${file} --dbname=${where}`,
    restore: `pg_restore --no-owner --exit-on-error --dbname=<an empty database's URL> ${file}`,
  };
}

/** Runs pg_dump into `file` (through a partial file renamed once pg_dump succeeds); pg_dump's progress goes to stderr. */
export async function runPgDump(url: string, file: string, io: CliIo, env: NodeJS.ProcessEnv): Promise<void> {
  const partial = `${file}.partial-${process.pid}`;
  const conn = pgConnection(url, env);
  const child = spawn('pg_dump', ['--format=custom', '--verbose', `--file=${partial}`, `--dbname=${conn.dbname}`], {
    env: conn.env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => void io.stderr.write(text));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (code !== 0) {
    await rm(partial, { force: true });
    throw new Error(`pg_dump failed (exit ${String(code)}): see its messages above.`);
  }
  await rename(partial, file);
}
