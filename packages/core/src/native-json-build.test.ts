// `pnpm install` must never fail because the addon cannot be built (no compiler where Weft is
// installed): the build's failure is a warning, and Weft then runs on its JavaScript path.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { fuzzAgainstReference, losslessDump } from './native-json-differential.ts';

const PACKAGE = fileURLToPath(new URL('../../json-native/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'weft-json-native-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function copyPackage(to: string) {
  for (const file of ['package.json', 'binding.gyp', 'index.cjs', 'build-failed.cjs', 'src']) {
    cpSync(join(PACKAGE, file), join(to, file), { recursive: true });
  }
}

it('installs without a working compiler, warning that the JavaScript path will be used', () => {
  copyPackage(dir);
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

// Apple's libc++ lacks std::from_chars of a double (and to_chars of one before macOS 13.3), where
// libstdc++ has both: py-float-repr.h then builds without them. WEFT_NO_FLOAT_CHARCONV forces
// that build here, so the macOS shape of the addon is compiled and fuzzed on every Linux run.
it('builds without floating-point charconv, leaving those numbers to the JavaScript reference', () => {
  const noFloat = mkdtempSync(join(tmpdir(), 'weft-json-native-nofloat-'));
  try {
    copyPackage(noFloat);
    const run = spawnSync('pnpm', ['run', 'install'], {
      cwd: noFloat,
      env: { ...process.env, CXXFLAGS: '-DWEFT_NO_FLOAT_CHARCONV' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stderr + run.stdout).not.toContain('was not built');
    const addon = createRequire(join(noFloat, 'package.json'))('./index.cjs') as {
      pyJsonDumpOfText: (text: string) => Buffer | undefined;
      pyJsonDumpOfLexemes: (text: string) => string | undefined;
    };
    expect(addon.pyJsonDumpOfText('{"a": 1.5}')).toBeUndefined();
    expect(addon.pyJsonDumpOfText('{"b":[1,-0,2],"a":"é"}')?.toString('latin1')).toBe('{"a": "\\u00e9", "b": [1, 0, 2]}');
    const seed = Math.floor(Math.random() * 2 ** 31);
    const { answered } = fuzzAgainstReference((text) => addon.pyJsonDumpOfText(text), seed, 10_000);
    expect(answered, `seed ${seed}`).toBeGreaterThan(1_000);
    // Floats left to the reference there too; ints of any length are still written as sent.
    expect(addon.pyJsonDumpOfLexemes('{"a": 1.0}')).toBeUndefined();
    expect(addon.pyJsonDumpOfLexemes('{"b":[12345678901234567890,-0],"a":"é"}')).toBe('{"a": "\\u00e9", "b": [12345678901234567890, 0]}');
    const lexemes = fuzzAgainstReference((text) => addon.pyJsonDumpOfLexemes(text), seed, 10_000, losslessDump);
    expect(lexemes.answered, `seed ${seed}`).toBeGreaterThan(1_000);
  } finally {
    rmSync(noFloat, { recursive: true, force: true });
  }
}, 180_000);
