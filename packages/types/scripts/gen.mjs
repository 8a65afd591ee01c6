// Generates src/openapi.ts from the bundled spec. With --check it fails when the committed file
// differs from what the spec produces (CI runs this so types never drift from spec/).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkgDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const specPath = createRequire(import.meta.url).resolve('@weft/spec/openapi.json');
const target = join(pkgDir, 'src', 'openapi.ts');
const generated = execFileSync(
  'openapi-typescript',
  // Request fields with a default stay optional for callers; the server fills the default.
  [specPath, '--default-non-nullable', 'false', '--root-types', '--root-types-no-schema-prefix', '--alphabetize'],
  { cwd: pkgDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
);
if (process.argv.includes('--check')) {
  const current = (() => { try { return readFileSync(target, 'utf8'); } catch { return ''; } })();
  if (current !== generated) {
    console.error('packages/types/src/openapi.ts is stale: run `pnpm gen` and commit the result.');
    process.exit(1);
  }
  console.log('packages/types/src/openapi.ts is up to date');
} else {
  writeFileSync(target, generated);
  console.log('wrote packages/types/src/openapi.ts');
}
