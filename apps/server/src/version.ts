// What this server is: its version (apps/server/package.json) and the git commit it was built
// from. A packed server (`pnpm pack:server`) carries both in build-info.json beside this file,
// written at pack time, because an installed package has no git repository to ask. Run from a
// clone (sources or dist) there is no such file: the commit is asked of git, once, at start, so it
// is never a stale one a cached build left behind. "unknown" when neither knows.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface BuildInfo {
  version: string;
  commit: string;
}

function readJson(relative: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function gitCommit(): string {
  try {
    const out = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd: dirname(fileURLToPath(import.meta.url)),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
    });
    return out.trim() || 'unknown';
  } catch {
    return 'unknown';
  }
}

function buildInfo(): BuildInfo {
  const packed = readJson('./build-info.json');
  if (typeof packed?.version === 'string' && typeof packed.commit === 'string') {
    return { version: packed.version, commit: packed.commit };
  }
  // src/version.ts and dist/version.js both sit one level under apps/server.
  const pkg = readJson('../package.json');
  return { version: typeof pkg?.version === 'string' ? pkg.version : 'unknown', commit: gitCommit() };
}

export const BUILD_INFO: Readonly<BuildInfo> = Object.freeze(buildInfo());
export const VERSION = BUILD_INFO.version;
/** What `weft --version` prints: both, so a bug report names the exact build. */
export const VERSION_LINE = `${BUILD_INFO.version} (commit ${BUILD_INFO.commit})`;
