// weft.yaml and the settings table as an operator meets them: default < file < environment,
// problems naming the file's line, `weft config` masking secrets and naming each value's origin,
// and `weft serve --help` listing every setting of the table with its default.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { weftInProcess } from './weft-in-process.ts';
import { SETTINGS, defaultText, yamlKey } from '../src/config/settings.ts';
import { ConfigError, loadConfig, loadConfigWithSources } from '../src/config.ts';

function dirWith(yaml: string | undefined, name = 'weft.yaml'): string {
  const dir = mkdtempSync(join(tmpdir(), 'weft-config-'));
  if (yaml !== undefined) writeFileSync(join(dir, name), yaml);
  return dir;
}

function problemsOf(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  return expect.unreachable('the configuration was accepted');
}

const weft = (env: NodeJS.ProcessEnv, ...argv: string[]) => weftInProcess(argv, env);

describe('weft.yaml', () => {
  it('sits between the defaults and the environment', () => {
    const dir = dirWith('port: 9001\nbody_limit: 1mb\nlog_level: debug\n');
    const { config, file, sources } = loadConfigWithSources({ WEFT_CWD: dir, LOG_LEVEL: 'warn' });
    expect(file).toBe(join(dir, 'weft.yaml'));
    expect(config).toMatchObject({ port: 9001, bodyLimit: 1024 ** 2, logLevel: 'warn', host: '127.0.0.1' });
    expect(sources.port).toEqual({ text: '9001', origin: `${join(dir, 'weft.yaml')}:1` });
    expect(sources.logLevel).toEqual({ text: 'warn', origin: 'env' });
    expect(sources.host).toEqual({ text: '127.0.0.1', origin: 'default' });
    // With no file the defaults hold.
    expect(loadConfig({ WEFT_CWD: dirWith(undefined) })).toMatchObject({ port: 8080, bodyLimit: 32 * 1024 ** 2, logLevel: 'info' });
  });

  it('is the file named by WEFT_CONFIG instead, its relative paths meaning its own directory', () => {
    const dir = dirWith('data_dir: state\ndatabase_url: sqlite:db/weft.sqlite\n', 'prod.yaml');
    const config = loadConfig({ WEFT_CWD: '/elsewhere', WEFT_CONFIG: join(dir, 'prod.yaml') });
    expect(config).toMatchObject({ dataDir: join(dir, 'state'), databaseUrl: `sqlite:${join(dir, 'db/weft.sqlite')}` });
    expect(problemsOf({ WEFT_CWD: dir, WEFT_CONFIG: 'missing.yaml' })).toContain(
      `${join(dir, 'missing.yaml')}: no such configuration file`,
    );
  });

  it('refuses an unknown key and a bad value, naming the line of each', () => {
    const dir = dirWith('port: 9001\n# a comment\nprot: 9002\nbody_limit: lots\nhost:\n  - a\n');
    const message = problemsOf({ WEFT_CWD: dir });
    const file = join(dir, 'weft.yaml');
    expect(message).toContain(`${file}:3:1: unknown setting "prot"`);
    expect(message).toContain(`${file}:4: body_limit must be a size like 32mb, 512kb or 1048576, got "lots"`);
    expect(message).toContain(`${file}:6:3: host must be a single value`);
    expect(problemsOf({ WEFT_CWD: dirWith('port: [1\n') })).toMatch(/weft\.yaml:\d+:\d+: YAML: /);
    // The environment's bad values are named by their variable.
    expect(problemsOf({ WEFT_CWD: dirWith(undefined), PORT: '80a' })).toContain('PORT must be an integer from 0 to 65535, got "80a"');
  });
});

describe('weft config', () => {
  it('prints every setting, secrets masked, with where each value came from', async () => {
    const dir = dirWith('database_url: postgres://weft:file-secret@db:5432/weft\nport: 9001\n');
    const out = await weft({ WEFT_CWD: dir, REDIS_URL: 'redis://:env-secret@cache:6379', LOG_LEVEL: 'debug' }, 'config');
    expect(out.code).toBe(0);
    expect(out.stdout).not.toMatch(/file-secret|env-secret/);
    expect(out.stdout).toMatch(new RegExp(`^DATABASE_URL +postgres://weft:\\*\\*\\*@db:5432/weft +${join(dir, 'weft.yaml')}:1$`, 'm'));
    expect(out.stdout).toMatch(/^REDIS_URL +redis:\/\/:\*\*\*@cache:6379 +env$/m);
    expect(out.stdout).toMatch(/^PORT +9001 +.*weft\.yaml:2$/m);
    expect(out.stdout).toMatch(/^LOG_LEVEL +debug +env$/m);
    for (const s of Object.values(SETTINGS)) expect(out.stdout).toMatch(new RegExp(`^${s.env} `, 'm'));
  });

  it('reads the file named by --config, and exits 1 naming the problems of a bad one', async () => {
    const dir = dirWith('port: 9001\nprot: 1\n', 'ops.yaml');
    const out = await weft({ WEFT_CWD: dir }, 'config', '--config', 'ops.yaml');
    expect(out).toMatchObject({ code: 1, stdout: '' });
    expect(out.stderr).toContain(`${join(dir, 'ops.yaml')}:2:1: unknown setting "prot"`);
  });
});

describe('weft serve --help', () => {
  it('lists every setting of the table with its weft.yaml key and default', async () => {
    const out = await weft({}, 'serve', '--help');
    expect(out.code).toBe(0);
    for (const s of Object.values(SETTINGS)) {
      expect(out.stdout).toContain(`  ${s.env}  (weft.yaml: ${yamlKey(s)})  default: ${defaultText(s)}\n      ${s.description}\n`);
    }
  });
});
