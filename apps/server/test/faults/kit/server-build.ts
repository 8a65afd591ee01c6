// The fault tests run the server as `pnpm start` does: node on the built JavaScript, a process of
// its own that a fault may kill. The build must be the current sources (a stale dist/ would test
// yesterday's server), so it is brought up to date once per test file the way scripts/start.sh
// does (turbo: instant when nothing changed), under the lock the other building tests take.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { withBuildLock } from '../../build-lock.ts';

const execFileAsync = promisify(execFile);

export const REPO_ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
export const SERVER_MAIN = fileURLToPath(new URL('../../../dist/main.js', import.meta.url));

let built: Promise<void> | undefined;

export function ensureServerBuilt(): Promise<void> {
  built ??= withBuildLock(async () => {
    try {
      await execFileAsync('pnpm', ['exec', 'turbo', 'run', 'build', '--filter=@weft/server...', '--output-logs=errors-only'], {
        cwd: REPO_ROOT,
        env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
        timeout: 300_000,
        maxBuffer: 16 * 1024 * 1024,
      });
    } catch (err) {
      const e = err as Error & { stdout?: string; stderr?: string };
      throw new Error(`building the server failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`, { cause: err });
    }
  });
  return built;
}
