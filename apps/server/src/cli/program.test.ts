// The `weft` command line as a user meets it: help on every command, the version, `weft` alone
// serving, and usage errors with exit code 2 (never starting anything).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VERSION_LINE } from '../version.ts';
import { runWeft } from './program.ts';

async function weft(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const calls: string[] = [];
  const actions = {
    serve: async () => (calls.push('serve'), -1),
    migrate: async () => (calls.push('migrate'), 0),
    demo: async (project: string | undefined) => (calls.push(`demo ${project ?? '(default)'}`), 0),
    openKeys: () => Promise.reject(new Error('no database in this test')),
  };
  const io = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } };
  const code = await runWeft(argv, io, actions);
  return { code, stdout, stderr, calls };
}

describe('weft', () => {
  it('serves when run alone or with serve, and migrates with migrate', async () => {
    expect(await weft()).toMatchObject({ code: -1, calls: ['serve'] });
    expect(await weft('serve')).toMatchObject({ code: -1, calls: ['serve'] });
    expect(await weft('migrate')).toMatchObject({ code: 0, calls: ['migrate'] });
    expect(await weft('demo')).toMatchObject({ code: 0, calls: ['demo (default)'] });
    expect(await weft('demo', '--project', 'acme/show')).toMatchObject({ code: 0, calls: ['demo acme/show'] });
  });

  it('has --help on every command, and --version', async () => {
    const top = await weft('--help');
    expect(top.code).toBe(0);
    for (const command of ['serve', 'migrate', 'demo', 'keys']) expect(top.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    for (const argv of [
      ['serve', '--help'],
      ['migrate', '--help'],
      ['keys', '--help'],
      ['keys', 'add', '--help'],
      ['keys', 'create', '--help'],
      ['keys', 'list', '--help'],
      ['keys', 'revoke', '--help'],
      ['keys', 'rotate', '--help'],
      ['help', 'keys'],
    ]) {
      const out = await weft(...argv);
      expect(out, argv.join(' ')).toMatchObject({ code: 0, calls: [] });
      expect(out.stdout).toMatch(/^Usage: weft/);
    }
    expect((await weft('keys', 'add', '--help')).stdout).toContain('--entity <entity...>');
    const keys = (await weft('keys', '--help')).stdout;
    for (const sub of ['create', 'list', 'revoke', 'rotate', 'add']) expect(keys).toMatch(new RegExp(`^  ${sub}\\b`, 'm'));
    expect(await weft('--version')).toMatchObject({ code: 0, stdout: `${VERSION_LINE}\n` });
    // The package's own version, and a commit (this test runs in a git clone).
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(VERSION_LINE).toMatch(new RegExp(`^${version.replaceAll('.', '\\.')} \\(commit [0-9a-f]{12}\\)$`));
  });

  it('refuses what it does not know with exit code 2, starting nothing', async () => {
    for (const [argv, message] of [
      [['bogus'], "unknown command 'bogus'"],
      [['serve', '--port', '9'], "unknown option '--port'"],
      [['migrate', 'now'], 'too many arguments'],
      [['keys'], 'Usage: weft keys'],
      [['keys', 'remove'], "unknown command 'remove'"],
      [['keys', 'add', '--user', 'alice'], "required option '--file <auth.yaml>'"],
      [['keys', 'create', '--entity', 'acme'], "required option '--user <name>'"],
      [['keys', 'revoke'], "missing required argument 'id'"],
      [['keys', 'rotate', 'weft_x', '--grace'], "option '--grace <duration>' argument missing"],
    ] as const) {
      const out = await weft(...argv);
      expect(out, argv.join(' ')).toMatchObject({ code: 2, calls: [] });
      expect(out.stderr).toContain(message);
    }
  });
});
