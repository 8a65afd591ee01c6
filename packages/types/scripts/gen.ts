// Generates from the bundled spec: src/openapi.ts (openapi-typescript) and src/operation-facts.ts
// (what the types cannot carry: each operation's body mode and auth, read by the one spec reader).
// With --check it fails when a committed file differs from what the spec produces (CI runs this
// so types never drift from spec/).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSpec, SPEC_FILE } from '../src/spec-document.ts';
import { specOperations } from '../src/spec-operations.ts';

const pkgDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');

function emit(relative: string, text: string): void {
  const target = join(pkgDir, relative);
  if (check) {
    let current = '';
    try {
      current = readFileSync(target, 'utf8');
    } catch {
      // a missing file counts as drift
    }
    if (current !== text) {
      console.error(`packages/types/${relative} is stale: run \`pnpm gen\` and commit the result.`);
      process.exit(1);
    }
    console.log(`packages/types/${relative} is up to date`);
  } else {
    writeFileSync(target, text);
    console.log(`wrote packages/types/${relative}`);
  }
}

emit(
  'src/openapi.ts',
  execFileSync(
    'openapi-typescript',
    // Request fields with a default stay optional for callers; the server fills the default.
    [SPEC_FILE, '--default-non-nullable', 'false', '--root-types', '--root-types-no-schema-prefix', '--alphabetize'],
    { cwd: pkgDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  ),
);

const facts = specOperations(loadSpec())
  .map((op) => ({ id: op.operationId, body: op.bodyMode, auth: op.schemes[0] ?? 'none', line: op.lineSchema ?? null }))
  .sort((a, b) => a.id.localeCompare(b.id))
  .map((f) => `  ${f.id}: { body: '${f.body}'; auth: '${f.auth}'; line: ${f.line ? `'${f.line}'` : 'null'} };`);
emit(
  'src/operation-facts.ts',
  [
    '// Generated from spec/openapi.json by `pnpm gen` (packages/types/scripts/gen.ts). Do not edit.',
    '// Per operation: how its body is read (x-weft-body), which credentials it takes (security) and,',
    '// for a JSON Lines answer, the schema of one line (x-weft-line-schema).',
    'export interface OperationFacts {',
    ...facts,
    '}',
    '',
  ].join('\n'),
);
