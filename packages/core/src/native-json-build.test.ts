// `pnpm install` must never fail because the addon cannot be built (no compiler where Weft is
// installed): the build's failure is a warning, and Weft then runs on its JavaScript path.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const PACKAGE = fileURLToPath(new URL('../../json-native/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'weft-json-native-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('installs without a working compiler, warning that the JavaScript path will be used', () => {
  for (const file of ['package.json', 'binding.gyp', 'index.cjs', 'build-failed.cjs', 'src']) {
    cpSync(join(PACKAGE, file), join(dir, file), { recursive: true });
  }
  // The package's own install script, as pnpm runs it, with compilers that always fail.
  const run = spawnSync('pnpm', ['run', 'install'], {
    cwd: dir,
    env: { ...process.env, CC: '/bin/false', CXX: '/bin/false' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(run.status, run.stdout + run.stderr).toBe(0);
  expect(run.stderr + run.stdout).toContain('@weft/json-native was not built, so Weft will use its JavaScript JSON path');
  // Nothing loadable was left behind: native-json.ts's load() gets an error and uses JavaScript.
  expect((): unknown => createRequire(join(dir, 'package.json'))('./index.cjs')).toThrow();
});
