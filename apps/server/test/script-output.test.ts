// What a script gets from the README's own invocations: `KEY=$(pnpm -s weft keys create …)`
// captures the key alone (pnpm's banners silenced, the notes on stderr), and exit codes are 0 on
// success, 1 on failure and 2 on a usage error. Real processes, as a shell runs them.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'weft-script-'));

function pnpm(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // The directory the command is run from is WEFT_CWD (as the root scripts set it from $PWD).
    const env: NodeJS.ProcessEnv = { ...process.env, WEFT_CWD: dir, DATABASE_URL: 'sqlite:weft.sqlite', NODE_OPTIONS: '' };
    delete env.WEFT_CONFIG;
    execFile('pnpm', argv, { cwd: repo, env }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code) : 0, stdout, stderr });
    });
  });
}

it('KEY=$(pnpm -s weft keys create …) captures only the key', async () => {
  const out = await pnpm('-s', 'weft', 'keys', 'create', '--user', 'alice', '--entity', 'acme');
  expect(out.code, out.stderr).toBe(0);
  expect(out.stdout).toMatch(/^weft_[A-Za-z0-9_-]{40,}\n$/);
  expect(out.stderr).toContain('alice');
}, 120_000);

it('exits 0 on success, 1 on a failure and 2 on a usage error', async () => {
  writeFileSync(join(dir, 'bad.yaml'), 'prot: 1\n');
  const [ok, failed, usage, badConfig] = await Promise.all([
    pnpm('-s', 'weft', 'migrate'),
    pnpm('-s', 'weft', 'keys', 'revoke', 'weft_nosuchkey000'),
    pnpm('-s', 'weft', 'keys', 'create'),
    pnpm('-s', 'weft', 'migrate', 'status', '--config', 'bad.yaml'),
  ]);
  expect(ok.code, ok.stderr).toBe(0);
  expect(failed.code, failed.stderr).toBe(1);
  expect(usage.code, usage.stderr).toBe(2);
  expect(usage.stderr).toContain("required option '--user <name>'");
  expect(badConfig.code).toBe(1);
  expect(badConfig.stderr).toContain('bad.yaml:1:1: unknown setting "prot"');
  // pnpm -s adds nothing of its own to a failure.
  for (const out of [failed, usage, badConfig]) expect(out.stderr).not.toMatch(/ELIFECYCLE|ERR_PNPM/);
}, 120_000);
