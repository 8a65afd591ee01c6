// `weft keys create | list | revoke | rotate` as an operator uses them, against a real SQLite file,
// and what the server's authenticator then accepts or refuses. (Two replicas on PostgreSQL sharing
// a revoke: test/replicas/replicas.test.ts.)
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKeyStore, migrateToLatest, openDatabase, type Db } from '@weft/store';
import { runWeft } from '../cli/program.ts';
import { createAuthenticator } from './authenticator.ts';
import { hashApiKey } from './keys.ts';

let db: Db;
const path = join(mkdtempSync(join(tmpdir(), 'weft-db-keys-')), 'weft.sqlite');

beforeAll(async () => {
  db = await openDatabase(`sqlite:${path}`);
  await migrateToLatest(db);
});
afterAll(() => db.close());

/** Each command opens the database itself, as `weft keys …` does in its own process. */
async function keys(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const io = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } };
  const openKeys = async () => {
    const own = await openDatabase(`sqlite:${path}`);
    return { keys: createApiKeyStore(own), where: path, close: () => own.close() };
  };
  const unused = () => Promise.reject(new Error('not a keys command'));
  const code = await runWeft(['keys', ...argv], io, { serve: unused, migrate: unused, migrateStatus: unused, demo: unused, openKeys });
  return { code, stdout, stderr, key: stdout.trim() };
}

// The server's authenticator over the same database, with an auth file user beside it.
const fileKey = 'weft_' + 'f'.repeat(40);
const auth = () =>
  createAuthenticator({ users: [{ username: 'ops', entities: ['*'], apiKeyHashes: [hashApiKey(fileKey)] }] }, createApiKeyStore(db));
const who = async (key: string, scheme: 'basic' | 'bearer' = 'bearer') => {
  const header = scheme === 'bearer' ? `Bearer ${key}` : `Basic ${Buffer.from(`api:${key}`).toString('base64')}`;
  const r = await auth().authenticate(header, scheme);
  return r.ok ? `${r.principal.username} [${r.principal.entities.join(',')}]` : r.reason;
};

describe('weft keys (database)', () => {
  it('creates a key printed once on stdout, which then authenticates with either scheme', async () => {
    const out = await keys('create', '--user', 'alice', '--entity', 'acme', '--name', 'laptop');
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^weft_[A-Za-z0-9_-]{40}\n$/);
    expect(out.stderr).toContain('will not be shown again');
    expect(out.stderr).not.toContain(out.key);
    expect(out.stderr).toContain(`${out.key.slice(0, 17)}…`);
    expect(await who(out.key)).toBe('alice [acme]');
    expect(await who(out.key, 'basic')).toBe('alice [acme]');
    // The file's keys keep working beside the database's.
    expect(await who(fileKey)).toBe('ops [*]');
    // The id alone, or the id with another tail, is not a key.
    expect(await who(out.key.slice(0, 17) + 'x'.repeat(28))).toBe('Invalid API key');
  });

  it('lists keys with their id, user, entities, name and last use, never a secret', async () => {
    const out = await keys('create', '--user', 'lister', '--entity', 'acme', '--entity', 'labs');
    const id = out.key.slice(0, 17);
    const before = await keys('list', '--user', 'lister');
    expect(before.code).toBe(0);
    expect(before.stdout.split('\n')[0]).toMatch(/^ID +USER +ENTITIES +SCOPE +NAME +CREATED +LAST USED +STATE$/);
    expect(before.stdout).toMatch(new RegExp(`^${id} +lister +acme,labs +admin +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\dZ +never +active$`, 'm'));
    expect(before.stdout).not.toContain(out.key);

    expect(await who(out.key)).toBe('lister [acme,labs]');
    // The use is recorded in the background: wait for it.
    let listed: Array<{ id: string; last_used_at: string | null }> = [];
    for (let i = 0; i < 50 && !listed[0]?.last_used_at; i++) {
      listed = JSON.parse((await keys('list', '--user', 'lister', '--json')).stdout) as typeof listed;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(listed[0]).toMatchObject({ id, state: 'active', last_used_at: expect.stringMatching(/^\d{4}-/) });
    expect(JSON.stringify(listed)).not.toMatch(/sha256|weft_[A-Za-z0-9_-]{40}/);
  });

  it('creates read-only and scoped keys; the principal carries the scope, list shows it, rotate keeps it', async () => {
    const readOnly = await keys('create', '--user', 'dashboard', '--entity', 'acme', '--read-only');
    expect(readOnly.code).toBe(0);
    expect(readOnly.stderr).toMatch(/New API key weft_[\w-]+… for "[^"]+" \(scope: read\) printed above/);
    const writer = await keys('create', '--user', 'ci', '--entity', 'acme', '--scope', 'write');
    const scopeOf = async (key: string) => {
      const r = await auth().authenticate(`Bearer ${key}`, 'bearer');
      return r.ok ? r.principal.scope : r.reason;
    };
    expect(await scopeOf(readOnly.key)).toBe('read');
    expect(await scopeOf(writer.key)).toBe('write');
    expect(await scopeOf(fileKey)).toBe('admin');
    const id = readOnly.key.slice(0, 17);
    expect((await keys('list', '--user', 'dashboard')).stdout).toMatch(new RegExp(`^${id} +dashboard +acme +read +`, 'm'));
    const rotated = await keys('rotate', id);
    expect(await scopeOf(rotated.key)).toBe('read');
    // Usage errors: an unknown scope, or both ways of saying it.
    expect((await keys('create', '--user', 'x', '--entity', 'acme', '--scope', 'owner')).code).toBe(2);
    expect((await keys('create', '--user', 'x', '--entity', 'acme', '--scope', 'write', '--read-only')).code).toBe(2);
  });

  it('creates keys with levels per entity: the principal carries them, list shows them, rotate keeps them', async () => {
    const mixed = await keys(
      'create',
      '--user',
      'reviewer',
      '--entity',
      'acme',
      '--entity',
      'lab',
      '--scope',
      'read',
      '--scope',
      'lab=write',
    );
    expect(mixed.code).toBe(0);
    expect(mixed.stderr).toContain('(scope: read; lab=write) printed above');
    const principal = async (key: string) => {
      const r = await auth().authenticate(`Bearer ${key}`, 'bearer');
      return r.ok ? { scope: r.principal.scope, entityScopes: r.principal.entityScopes } : r.reason;
    };
    expect(await principal(mixed.key)).toEqual({ scope: 'read', entityScopes: { lab: 'write' } });
    const id = mixed.key.slice(0, 17);
    expect((await keys('list', '--user', 'reviewer')).stdout).toMatch(new RegExp(`^${id} +reviewer +acme,lab +read; lab=write +`, 'm'));
    expect(await principal((await keys('rotate', id)).key)).toEqual({ scope: 'read', entityScopes: { lab: 'write' } });
    // Only entities named: the others keep admin, the default.
    const narrowed = await keys('create', '--user', 'reviewer', '--scope', 'acme=read');
    expect(await principal(narrowed.key)).toEqual({ scope: 'admin', entityScopes: { acme: 'read' } });

    // An entity the user may not access: refused, no key printed.
    const outside = await keys('create', '--user', 'reviewer', '--scope', 'elsewhere=write');
    expect(outside).toMatchObject({ code: 1, stdout: '' });
    expect(outside.stderr).toContain('A scope names "elsewhere", which "reviewer" may not access: grant it with --entity');
    // Usage errors (exit 2): a bad level, two plain levels, two levels for one entity, a malformed entity.
    for (const bad of [['lab=owner'], ['read', '--scope', 'write'], ['lab=read', '--scope', 'lab=write'], ['a/b=read']]) {
      const r = await keys('create', '--user', 'reviewer', '--scope', ...bad);
      expect(r.code, bad.join(' ')).toBe(2);
      expect(r.stdout, bad.join(' ')).toBe('');
    }
  });

  it('revokes by id: the next request with the key is refused, and list hides it unless --all', async () => {
    const out = await keys('create', '--user', 'revokee', '--entity', 'acme');
    const id = out.key.slice(0, 17);
    expect(await who(out.key)).toBe('revokee [acme]');
    const revoked = await keys('revoke', id);
    expect(revoked).toMatchObject({ code: 0, stdout: '' });
    expect(revoked.stderr).toContain(`Revoked ${id}`);
    expect(await who(out.key)).toBe('API key revoked');
    expect(await who(out.key, 'basic')).toBe('API key revoked');
    expect((await keys('list', '--user', 'revokee')).stdout).not.toContain(id);
    expect((await keys('list', '--user', 'revokee', '--all')).stdout).toMatch(new RegExp(`${id} .* revoked \\d{4}`));

    const unknown = await keys('revoke', 'weft_doesnotexist');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no key weft_doesnotexist');
  });

  it('rotates: the new key works at once; the old one stops now, or after --grace', async () => {
    const first = await keys('create', '--user', 'rotor', '--entity', 'acme', '--name', 'deploy');
    const second = await keys('rotate', first.key.slice(0, 17));
    expect(second.code).toBe(0);
    expect(second.key).toMatch(/^weft_[A-Za-z0-9_-]{40}$/);
    expect(second.key).not.toBe(first.key);
    expect(await who(second.key)).toBe('rotor [acme]');
    expect(await who(first.key)).toBe('API key revoked');

    const third = await keys('rotate', second.key.slice(0, 17), '--grace', '1h');
    expect(third.code).toBe(0);
    expect(third.stderr).toMatch(/keeps working until \d{4}-/);
    expect(await who(second.key)).toBe('rotor [acme]');
    expect(await who(third.key)).toBe('rotor [acme]');
    expect((await keys('list', '--user', 'rotor')).stdout).toMatch(/deploy .* expires \d{4}/);
    // A grace period that ended: the old key is refused.
    await db.kysely
      .updateTable('api_keys')
      .set({ expires_at: '2000-01-01T00:00:00.000Z' })
      .where('id', '=', second.key.slice(0, 17))
      .execute();
    expect(await who(second.key)).toBe('API key expired');
    expect(await who(third.key)).toBe('rotor [acme]');
  });

  it('explains operator mistakes without printing a key', async () => {
    const noEntity = await keys('create', '--user', 'newcomer');
    expect(noEntity).toMatchObject({ code: 1, stdout: '' });
    expect(noEntity.stderr).toContain('give at least one --entity');
    const badGrace = await keys('rotate', 'weft_whatever', '--grace', 'soon');
    expect(badGrace).toMatchObject({ code: 2, stdout: '' });
    expect(badGrace.stderr).toContain('--grace must be a duration');
    const revokedRotation = await keys('create', '--user', 'x', '--entity', 'x');
    await keys('revoke', revokedRotation.key.slice(0, 17));
    const again = await keys('rotate', revokedRotation.key.slice(0, 17));
    expect(again).toMatchObject({ code: 1, stdout: '' });
    expect(again.stderr).toContain('already revoked');
  });
});
