import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAuthFile } from './auth-file.ts';
import { createAuthenticator } from './authenticator.ts';
import { runWeft } from '../cli/program.ts';

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const io = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } };
  const code = await runWeft(['keys', ...argv], io, unused);
  return { code, stdout, stderr, key: stdout.trim() };
}

const unused = {
  serve: () => Promise.reject(new Error('not a keys command')),
  migrate: () => Promise.reject(new Error('not a keys command')),
  migrateStatus: () => Promise.reject(new Error('not a keys command')),
  demo: () => Promise.reject(new Error('not a keys command')),
  openKeys: () => Promise.reject(new Error('keys add uses no database')),
};

const tempFile = () => join(mkdtempSync(join(tmpdir(), 'weft-cli-')), 'auth.yaml');
const basic = (key: string) => `Basic ${Buffer.from(`api:${key}`).toString('base64')}`;

describe('weft keys add', () => {
  it('creates the file and user, prints the key once, and that key authenticates', async () => {
    const file = tempFile();
    const out = await run(['add', '--file', file, '--user', 'alice', '--entity', 'acme', '--entity', 'alice']);
    expect(out.code).toBe(0);
    expect(out.key).toMatch(/^weft_[A-Za-z0-9_-]{40}$/);
    expect(out.stdout).toBe(`${out.key}\n`);
    expect(out.stderr).toContain('will not be shown again');
    expect(out.stderr).not.toContain(out.key);

    expect(readFileSync(file, 'utf8')).not.toContain(out.key);
    const auth = createAuthenticator(loadAuthFile(file));
    const result = await auth.authenticate(basic(out.key), 'basic');
    if (!result.ok) throw new Error(result.reason);
    expect(result.principal).toEqual({
      username: 'alice',
      entities: ['acme', 'alice'],
      keyId: expect.stringMatching(/^[0-9a-f]{16}$/),
      scope: 'admin',
    });
    expect(auth.authorizeProject(result.principal, 'acme/p')).toEqual({ ok: true });
    expect(auth.authorizeProject(result.principal, 'globex/p')).toMatchObject({ ok: false, status: 403 });
  });

  it('adds keys and users to an existing file, keeping old keys and comments', async () => {
    const file = tempFile();
    const first = await run(['add', '--file', file, '--user', 'alice', '--entity', 'acme']);
    writeFileSync(file, `# operators' note: keep me\n${readFileSync(file, 'utf8')}`);
    const second = await run(['add', '--file', file, '--user', 'alice']);
    const bob = await run(['add', `--file=${file}`, '--user', 'bob', '--entity', 'globex']);
    expect([first.code, second.code, bob.code]).toEqual([0, 0, 0]);
    expect(second.key).not.toBe(first.key);

    const text = readFileSync(file, 'utf8');
    expect(text).toContain("# operators' note: keep me");
    for (const key of [first.key, second.key, bob.key]) expect(text).not.toContain(key);

    const auth = createAuthenticator(loadAuthFile(file));
    const who = async (key: string) => {
      const r = await auth.authenticate(`Bearer ${key}`, 'bearer');
      return r.ok ? r.principal.username : r.reason;
    };
    expect(await Promise.all([who(first.key), who(second.key), who(bob.key)])).toEqual(['alice', 'alice', 'bob']);
  });

  it('grants extra entities to an existing user and supports "*"', async () => {
    const file = tempFile();
    await run(['add', '--file', file, '--user', 'alice', '--entity', 'acme']);
    const out = await run(['add', '--file', file, '--user', 'alice', '--entity', 'acme', '--entity', 'beta']);
    expect(out.stderr).toContain('Granted "alice" access to: beta.');
    await run(['add', '--file', file, '--user', 'local', '--entity', '*']);
    const config = loadAuthFile(file);
    expect(config.users.map((u) => [u.username, u.entities])).toEqual([
      ['alice', ['acme', 'beta']],
      ['local', ['*']],
    ]);
  });

  it('gives a new user the --scope of its first key (per entity too); later keys share it, another scope is refused', async () => {
    const file = tempFile();
    const principalOf = async (key: string) => {
      const result = await createAuthenticator(loadAuthFile(file)).authenticate(basic(key), 'basic');
      if (!result.ok) throw new Error(result.reason);
      return result.principal;
    };
    const dash = await run(['add', '--file', file, '--user', 'dash', '--entity', 'acme', '--read-only']);
    const rev = await run([
      'add',
      '--file',
      file,
      '--user',
      'rev',
      '--entity',
      'acme',
      '--entity',
      'lab',
      '--scope',
      'read',
      '--scope',
      'lab=write',
    ]);
    expect([dash.code, rev.code]).toEqual([0, 0]);
    expect(await principalOf(dash.key)).toMatchObject({ scope: 'read' });
    expect((await principalOf(dash.key)).entityScopes).toBeUndefined();
    expect(await principalOf(rev.key)).toMatchObject({ scope: 'read', entityScopes: { lab: 'write' } });
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('scope: read\n');
    expect(text).toMatch(/scope:\n\s+"\*": read\n\s+lab: write\n/);

    // Another key for rev: with no scope, or the same one, it has rev's; a different one is refused, the file untouched.
    expect((await run(['add', '--file', file, '--user', 'rev'])).code).toBe(0);
    expect((await run(['add', '--file', file, '--user', 'rev', '--scope', 'lab=write', '--scope', 'read'])).code).toBe(0);
    const before = readFileSync(file, 'utf8');
    const other = await run(['add', '--file', file, '--user', 'rev', '--scope', 'write']);
    expect(other).toMatchObject({ code: 1, stdout: '' });
    expect(other.stderr).toContain('User "rev" has scope read; lab=write in');
    expect(other.stderr).toContain('a key with scope write needs a user of its own');
    expect(readFileSync(file, 'utf8')).toBe(before);
    // A level for an entity the new user lacks: refused by the file's own check, nothing written.
    const outside = await run(['add', '--file', file, '--user', 'newbie', '--entity', 'acme', '--scope', 'lab=read']);
    expect(outside).toMatchObject({ code: 1, stdout: '' });
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('fails with a usage error and writes nothing when arguments are wrong', async () => {
    const file = tempFile();
    expect((await run(['add', '--file', file])).code).toBe(2);
    expect((await run(['add', '--file', file, '--user', 'x', '--bogus'])).code).toBe(2);
    expect((await run(['remove'])).code).toBe(2);
    expect((await run([])).code).toBe(2);
    expect((await run(['--help'])).code).toBe(0);

    const noEntity = await run(['add', '--file', file, '--user', 'alice']);
    expect(noEntity).toMatchObject({ code: 1, stdout: '' });
    expect(noEntity.stderr).toContain('--entity');
    const badEntity = await run(['add', '--file', file, '--user', 'alice', '--entity', 'a/b']);
    expect(badEntity).toMatchObject({ code: 1, stdout: '' });
    expect(badEntity.stderr).toContain('"a/b" must not contain "/"');
    expect(() => readFileSync(file)).toThrow(/ENOENT/);
  });

  it('refuses to edit an invalid file and prints no key', async () => {
    const file = tempFile();
    writeFileSync(file, 'users:\n  - username: alice\n    entities: [acme]\n    api_keys: ["weft_plaintext"]\n');
    const out = await run(['add', '--file', file, '--user', 'alice']);
    expect(out).toMatchObject({ code: 1, stdout: '' });
    expect(out.stderr).toContain('users[0].api_keys[0]');
    expect(out.stderr).not.toContain('weft_plaintext');
  });
});
