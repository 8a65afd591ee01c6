import { beforeAll, describe, expect, it } from 'vitest';
import type { AuthResult, Principal } from './auth-types.ts';
import { authorizeEntity, authorizeProject, createAuthenticator, defaultEntity } from './authenticator.ts';
import { generateApiKey, hashApiKey } from './keys.ts';

const aliceKey = generateApiKey();
const bobKey = generateApiKey();
const localKey = generateApiKey();
const auth = createAuthenticator({
  users: [
    { username: 'alice', entities: ['acme', 'alice'], apiKeyHashes: [hashApiKey(aliceKey)] },
    { username: 'bob', entities: ['globex'], apiKeyHashes: [hashApiKey(bobKey)] },
    { username: 'local', entities: ['*'], apiKeyHashes: [hashApiKey(localKey)] },
  ],
});

const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;

async function principalOf(pending: Promise<AuthResult>): Promise<Principal> {
  const result = await pending;
  if (!result.ok) throw new Error(`expected success, got 401: ${result.reason}`);
  return result.principal;
}

async function failureOf(pending: Promise<AuthResult>) {
  const result = await pending;
  if (result.ok) throw new Error(`expected 401, got principal ${result.principal.username}`);
  expect(result.status).toBe(401);
  return result;
}

describe('authenticate: Basic', () => {
  it('accepts the SDK placeholder username "api" with a valid key', async () => {
    expect(await principalOf(auth.authenticate(basic('api', aliceKey), 'basic'))).toEqual({
      username: 'alice',
      entities: ['acme', 'alice'],
      // A prefix of the key's stored hash, never the key itself.
      keyId: hashApiKey(aliceKey).slice('sha256:'.length, 'sha256:'.length + 16),
      // No scope in the file: everything, as before scopes.
      scope: 'admin',
    });
  });

  it("carries the auth file's scope of a user on each of its keys", async () => {
    const key = generateApiKey();
    const scoped = createAuthenticator({
      users: [{ username: 'dash', entities: ['acme'], apiKeyHashes: [hashApiKey(key)], scope: 'read' }],
    });
    expect((await principalOf(scoped.authenticate(basic('api', key), 'basic'))).scope).toBe('read');
  });

  it("accepts the key owner's own username, and an empty username", async () => {
    expect((await principalOf(auth.authenticate(basic('alice', aliceKey), 'basic'))).username).toBe('alice');
    expect((await principalOf(auth.authenticate(basic('', aliceKey), 'basic'))).username).toBe('alice');
  });

  it("rejects another known user's name paired with a valid key", async () => {
    const failure = await failureOf(auth.authenticate(basic('bob', aliceKey), 'basic'));
    expect(failure.reason).toBe('API key does not belong to user "bob"');
    expect(failure.wwwAuthenticate).toBe('Basic realm="weft"');
  });

  it('rejects an unknown key, whatever the username', async () => {
    expect((await failureOf(auth.authenticate(basic('api', generateApiKey()), 'basic'))).reason).toBe('Invalid API key');
    expect((await failureOf(auth.authenticate(basic('alice', bobKey + 'x'), 'basic'))).reason).toBe('Invalid API key');
    expect((await failureOf(auth.authenticate(basic('api', ''), 'basic'))).reason).toMatch(/Missing API key/);
  });

  it('matches the scheme name case-insensitively', async () => {
    const credentials = basic('api', aliceKey).slice('Basic '.length);
    for (const name of ['basic', 'BASIC', 'bAsIc']) {
      expect((await principalOf(auth.authenticate(`${name} ${credentials}`, 'basic'))).username).toBe('alice');
    }
  });

  it('rejects malformed base64 and credentials without a colon', async () => {
    for (const header of [
      'Basic',
      'Basic !!!not-base64!!!',
      'Basic YWxpY2U', // "alice": no colon
      `Basic ${Buffer.from(aliceKey).toString('base64')}`, // key alone, no colon
      'Basic /w==', // decodes to a lone 0xFF byte: not UTF-8
    ]) {
      const failure = await failureOf(auth.authenticate(header, 'basic'));
      expect(failure.reason).toMatch(/^Malformed Basic credentials/);
      expect(failure.wwwAuthenticate).toBe('Basic realm="weft"');
    }
  });

  it('allows colons inside the key (only the first colon splits)', async () => {
    const colonKey = 'weft_has:colon';
    const a = createAuthenticator({ users: [{ username: 'c', entities: ['c'], apiKeyHashes: [hashApiKey(colonKey)] }] });
    expect((await principalOf(a.authenticate(basic('api', colonKey), 'basic'))).username).toBe('c');
  });
});

describe('authenticate: Bearer', () => {
  it('accepts a valid key, with any scheme capitalisation', async () => {
    expect((await principalOf(auth.authenticate(`Bearer ${bobKey}`, 'bearer'))).username).toBe('bob');
    expect((await principalOf(auth.authenticate(`bearer ${bobKey}`, 'bearer'))).username).toBe('bob');
  });

  it('rejects unknown and empty tokens with a Bearer challenge', async () => {
    const failure = await failureOf(auth.authenticate(`Bearer ${generateApiKey()}`, 'bearer'));
    expect(failure).toMatchObject({ reason: 'Invalid API key', wwwAuthenticate: 'Bearer realm="weft"' });
    expect((await failureOf(auth.authenticate('Bearer ', 'bearer'))).reason).toBe('Missing bearer token');
    expect((await failureOf(auth.authenticate('Bearer', 'bearer'))).reason).toBe('Missing bearer token');
    expect((await failureOf(auth.authenticate(`Bearer ${bobKey} extra`, 'bearer'))).reason).toBe('Malformed bearer token');
  });
});

describe('authenticate: missing header and wrong scheme', () => {
  it('reports missing credentials with the challenge for the expected scheme', async () => {
    expect(await failureOf(auth.authenticate(undefined, 'basic'))).toMatchObject({
      reason: 'Missing credentials',
      wwwAuthenticate: 'Basic realm="weft"',
    });
    expect(await failureOf(auth.authenticate('', 'bearer'))).toMatchObject({
      reason: 'Missing credentials',
      wwwAuthenticate: 'Bearer realm="weft"',
    });
  });

  it('says which scheme is expected when a valid key arrives under the other one', async () => {
    expect(await failureOf(auth.authenticate(`Bearer ${aliceKey}`, 'basic'))).toMatchObject({
      reason: 'This operation requires Basic authentication',
      wwwAuthenticate: 'Basic realm="weft"',
    });
    expect(await failureOf(auth.authenticate(basic('api', aliceKey), 'bearer'))).toMatchObject({
      reason: 'This operation requires Bearer authentication',
      wwwAuthenticate: 'Bearer realm="weft"',
    });
  });

  it('never echoes a bare key sent without a scheme', async () => {
    const failure = await failureOf(auth.authenticate(aliceKey, 'bearer'));
    expect(failure.reason).not.toContain(aliceKey);
  });
});

describe('tenancy', () => {
  let alice: Principal;
  let local: Principal;
  beforeAll(async () => {
    alice = await principalOf(auth.authenticate(`Bearer ${aliceKey}`, 'bearer'));
    local = await principalOf(auth.authenticate(`Bearer ${localKey}`, 'bearer'));
  });

  it("allows a user's own entities and forbids other tenants with 403", async () => {
    expect(auth.authorizeProject(alice, 'acme/traces')).toEqual({ ok: true });
    expect(auth.authorizeProject(alice, 'alice/scratch/nested')).toEqual({ ok: true });
    expect(auth.authorizeProject(alice, 'globex/traces')).toEqual({
      ok: false,
      status: 403,
      reason: 'User "alice" may not access entity "globex"',
    });
    expect(auth.authorizeEntity(alice, 'acme')).toEqual({ ok: true });
    expect(auth.authorizeEntity(alice, 'globex')).toMatchObject({ ok: false, status: 403 });
  });

  it('does not let an entity name prefix stand in for the entity', async () => {
    expect(authorizeProject(alice, 'acmecorp/p')).toMatchObject({ ok: false });
    expect(authorizeProject(alice, 'acm/p')).toMatchObject({ ok: false });
  });

  it('treats malformed project ids as forbidden', async () => {
    for (const id of ['acme', '/acme', 'acme/', '', '/']) {
      expect(authorizeProject(alice, id)).toMatchObject({ ok: false, status: 403 });
      expect(authorizeProject(local, id)).toMatchObject({ ok: false, status: 403 });
    }
  });

  it('lets a "*" user reach any entity, but not "*" itself as a name', async () => {
    expect(authorizeProject(local, 'anyone/anything')).toEqual({ ok: true });
    expect(authorizeEntity(local, 'globex')).toEqual({ ok: true });
    expect(authorizeEntity(local, '*')).toMatchObject({ ok: false, status: 403 });
    expect(authorizeProject(alice, '*/p')).toMatchObject({ ok: false, status: 403 });
  });

  it('resolves the default entity for clients that send entity: null', async () => {
    expect(defaultEntity(alice)).toBe('acme');
    expect(auth.defaultEntity(await principalOf(auth.authenticate(`Bearer ${bobKey}`, 'bearer')))).toBe('globex');
    // A wildcard-only user has no listed name, so their own name is used.
    expect(defaultEntity(local)).toBe('local');
    expect(defaultEntity({ username: 'x', entities: ['*', 'team'] })).toBe('team');
  });

  it('hands out principals that cannot be widened by mutation', async () => {
    expect(() => (alice.entities as string[]).push('globex')).toThrow(TypeError);
    expect(auth.authorizeEntity(alice, 'globex')).toMatchObject({ ok: false });
  });
});
