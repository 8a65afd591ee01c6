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
  const env: NodeJS.ProcessEnv = {};
  const actions = {
    serve: async () => (calls.push(`serve${env.WEFT_CONFIG ? ` ${env.WEFT_CONFIG}` : ''}`), -1),
    migrate: async (opts: { dryRun?: boolean | undefined }) => (calls.push(opts.dryRun ? 'migrate --dry-run' : 'migrate'), 0),
    migrateStatus: async () => (calls.push('migrate status'), 0),
    demo: async (project: string | undefined) => (calls.push(`demo ${project ?? '(default)'}`), 0),
    openKeys: () => Promise.reject(new Error('no database in this test')),
  };
  const io = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } };
  const code = await runWeft(argv, io, actions, env);
  return { code, stdout, stderr, calls, env };
}

describe('weft', () => {
  it('serves when run alone or with serve, and migrates with migrate', async () => {
    expect(await weft()).toMatchObject({ code: -1, calls: ['serve'] });
    expect(await weft('serve')).toMatchObject({ code: -1, calls: ['serve'] });
    expect(await weft('migrate')).toMatchObject({ code: 0, calls: ['migrate'] });
    expect(await weft('demo')).toMatchObject({ code: 0, calls: ['demo (default)'] });
    expect(await weft('demo', '--project', 'acme/show')).toMatchObject({ code: 0, calls: ['demo acme/show'] });
    expect(await weft('migrate', '--dry-run')).toMatchObject({ code: 0, calls: ['migrate --dry-run'] });
    expect(await weft('migrate', 'status')).toMatchObject({ code: 0, calls: ['migrate status'] });
  });

  it('takes --config before or after the command, as WEFT_CONFIG for the run', async () => {
    expect(await weft('serve', '--config', 'a.yaml')).toMatchObject({ code: -1, calls: ['serve a.yaml'] });
    expect(await weft('--config', 'b.yaml', 'serve')).toMatchObject({ code: -1, calls: ['serve b.yaml'] });
    expect((await weft('migrate', 'status', '--config', 'c.yaml')).env.WEFT_CONFIG).toBe('c.yaml');
  });

  it('has --help on every command, and --version', async () => {
    const top = await weft('--help');
    expect(top.code).toBe(0);
    for (const command of ['serve', 'migrate', 'demo', 'keys']) expect(top.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    for (const argv of [
      ['serve', '--help'],
      ['config', '--help'],
      ['migrate', '--help'],
      ['migrate', 'status', '--help'],
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
      [['migrate', '--dry'], "unknown option '--dry'"],
      [['config', '--config'], "option '--config <file>' argument missing"],
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
