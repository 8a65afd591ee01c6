// Bundles the handwritten spec (openapi.yaml + paths/ + components/) into openapi.json, the one
// file every tool reads (server validator, Prism, type generator). With --check it only compares.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const specDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(specDir, 'openapi.json');
const tmp = mkdtempSync(join(tmpdir(), 'weft-spec-'));
try {
  const out = join(tmp, 'openapi.json');
  execFileSync('redocly', ['bundle', 'openapi.yaml', '--ext', 'json', '-o', out], {
    cwd: specDir,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  const bundled = JSON.parse(readFileSync(out, 'utf8'));
  const text = JSON.stringify({ 'x-generated': 'Bundled from spec/openapi.yaml by `pnpm gen`. Do not edit.', ...bundled }, null, 2) + '\n';
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(target, 'utf8');
    } catch {
      /* missing counts as drift */
    }
    if (current !== text) {
      console.error('spec/openapi.json is stale: run `pnpm gen` and commit the result.');
      process.exit(1);
    }
    console.log('spec/openapi.json is up to date');
  } else {
    writeFileSync(target, text);
    console.log('wrote spec/openapi.json');
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
