// Keys kept in the database: what `weft keys …` writes and each request reads. Only hashes and
// public ids are stored; a revoke or a rotation is one committed write that the next read sees.
import { expect, it } from 'vitest';
import { createApiKeyStore, ApiKeyError } from '../../src/api-keys/api-key-store.ts';
import { describeEachDialect } from '../dialects.ts';

const hash = (c: string) => `sha256:${c.repeat(64)}`;

describeEachDialect('API keys in the database', (getDb) => {
  it('creates a user with its first key, grants more entities with a later key, and lists both', async () => {
    const keys = createApiKeyStore(getDb());
    expect(
      await keys.create({ id: 'weft_aaaaaaaaaaaa', key_hash: hash('a'), username: 'alice', entities: ['acme', 'acme'], name: 'ci' }),
    ).toEqual({
      createdUser: true,
      grantedEntities: [],
    });
    expect(await keys.create({ id: 'weft_bbbbbbbbbbbb', key_hash: hash('b'), username: 'alice', entities: ['acme', 'labs'] })).toEqual({
      createdUser: false,
      grantedEntities: ['labs'],
    });
    const list = await keys.list({ username: 'alice' });
    expect(list.map((k) => [k.id, k.name, k.entities])).toEqual([
      ['weft_aaaaaaaaaaaa', 'ci', ['acme', 'labs']],
      ['weft_bbbbbbbbbbbb', null, ['acme', 'labs']],
    ]);
    expect(list[0]).toMatchObject({ username: 'alice', last_used_at: null, revoked_at: null, expires_at: null });
    expect(list[0]!.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // Rows hold no secret: the hash is only read by find, for the authenticator.
    expect(JSON.stringify(list)).not.toContain(hash('a'));
  });

  it('refuses a new user without entities, and a duplicate id, writing nothing', async () => {
    const keys = createApiKeyStore(getDb());
    await expect(keys.create({ id: 'weft_cccccccccccc', key_hash: hash('c'), username: 'carol', entities: [] })).rejects.toThrow(
      ApiKeyError,
    );
    expect(await keys.list({ username: 'carol' })).toEqual([]);
    await keys.create({ id: 'weft_dddddddddddd', key_hash: hash('d'), username: 'dave', entities: ['d'] });
    await expect(keys.create({ id: 'weft_dddddddddddd', key_hash: hash('e'), username: 'dave', entities: ['e'] })).rejects.toThrow();
    expect((await keys.find('weft_dddddddddddd'))?.key_hash).toBe(hash('d'));
    // The failed create's grant was rolled back with it.
    expect((await keys.find('weft_dddddddddddd'))?.entities).toEqual(['d']);
  });

  it('finds a key with its owner, records its use, and sees a revoke at once', async () => {
    const keys = createApiKeyStore(getDb());
    await keys.create({ id: 'weft_ffffffffffff', key_hash: hash('f'), username: 'frank', entities: ['acme'] });
    expect(await keys.find('weft_ffffffffffff')).toEqual({
      id: 'weft_ffffffffffff',
      username: 'frank',
      entities: ['acme'],
      key_hash: hash('f'),
      scope: 'admin',
      entity_scopes: null,
      revoked_at: null,
      expires_at: null,
    });
    expect(await keys.find('weft_nonexistent')).toBeUndefined();
    await keys.touch('weft_ffffffffffff', '2026-01-02T03:04:05.678Z');
    expect((await keys.list({ username: 'frank' }))[0]!.last_used_at).toBe('2026-01-02T03:04:05.678Z');

    expect(await keys.revoke('weft_ffffffffffff')).toBe(true);
    const revokedAt = (await keys.find('weft_ffffffffffff'))!.revoked_at;
    expect(revokedAt).not.toBeNull();
    expect(await keys.revoke('weft_ffffffffffff')).toBe(true);
    expect((await keys.find('weft_ffffffffffff'))!.revoked_at).toBe(revokedAt); // the first revocation stands
    expect(await keys.revoke('weft_nonexistent')).toBe(false);
    expect(await keys.list({ username: 'frank' })).toEqual([]);
    expect(await keys.list({ username: 'frank', include_revoked: true })).toHaveLength(1);
  });

  it('rotates: the new key keeps user and name; the old one is revoked, or expires after a grace period', async () => {
    const keys = createApiKeyStore(getDb());
    await keys.create({ id: 'weft_gggggggggggg', key_hash: hash('1'), username: 'grace', entities: ['acme'], name: 'deploy' });
    const rotated = await keys.rotate('weft_gggggggggggg', { id: 'weft_hhhhhhhhhhhh', key_hash: hash('2') });
    expect(rotated).toMatchObject({ id: 'weft_hhhhhhhhhhhh', username: 'grace', name: 'deploy', entities: ['acme'] });
    expect((await keys.find('weft_gggggggggggg'))!.revoked_at).not.toBeNull();
    expect((await keys.find('weft_hhhhhhhhhhhh'))!.key_hash).toBe(hash('2'));

    const until = '2999-01-01T00:00:00.000Z';
    await keys.rotate('weft_hhhhhhhhhhhh', { id: 'weft_iiiiiiiiiiii', key_hash: hash('3') }, until);
    expect(await keys.find('weft_hhhhhhhhhhhh')).toMatchObject({ revoked_at: null, expires_at: until });

    // A revoked key cannot be rotated (that would revive its access), nor an unknown one.
    await expect(keys.rotate('weft_gggggggggggg', { id: 'weft_jjjjjjjjjjjj', key_hash: hash('4') })).rejects.toThrow(/already revoked/);
    await expect(keys.rotate('weft_unknown', { id: 'weft_kkkkkkkkkkkk', key_hash: hash('5') })).rejects.toThrow(/No key/);
    expect(await keys.find('weft_jjjjjjjjjjjj')).toBeUndefined();
  });

  it('keeps a key scope (admin unless given), lists it, and a rotation keeps it', async () => {
    const keys = createApiKeyStore(getDb());
    await keys.create({ id: 'weft_llllllllllll', key_hash: hash('6'), username: 'lena', entities: ['acme'], scope: 'read' });
    await keys.create({ id: 'weft_mmmmmmmmmmmm', key_hash: hash('7'), username: 'lena', entities: [], scope: 'write' });
    await keys.create({ id: 'weft_nnnnnnnnnnnn', key_hash: hash('8'), username: 'lena', entities: [] });
    expect((await keys.find('weft_llllllllllll'))?.scope).toBe('read');
    const listed = await keys.list({ username: 'lena' });
    expect(Object.fromEntries(listed.map((k) => [k.id, k.scope]))).toEqual({
      weft_llllllllllll: 'read',
      weft_mmmmmmmmmmmm: 'write',
      weft_nnnnnnnnnnnn: 'admin',
    });
    const rotated = await keys.rotate('weft_llllllllllll', { id: 'weft_oooooooooooo', key_hash: hash('9') });
    expect(rotated.scope).toBe('read');
    expect((await keys.find('weft_oooooooooooo'))?.scope).toBe('read');
  });

  it('keeps levels per entity, lists them, a rotation keeps them, and refuses an entity the user lacks', async () => {
    const keys = createApiKeyStore(getDb());
    const levels = { lab: 'write', acme: 'admin' } as const;
    await keys.create({
      id: 'weft_pppppppppppp',
      key_hash: hash('a'),
      username: 'pia',
      entities: ['acme', 'lab'],
      scope: 'read',
      entity_scopes: levels,
    });
    const found = await keys.find('weft_pppppppppppp');
    expect(found).toMatchObject({ scope: 'read', entity_scopes: levels });
    expect((await keys.list({ username: 'pia' }))[0]!.entity_scopes).toEqual(levels);
    const rotated = await keys.rotate('weft_pppppppppppp', { id: 'weft_qqqqqqqqqqqq', key_hash: hash('b') });
    expect(rotated.entity_scopes).toEqual(levels);
    expect((await keys.find('weft_qqqqqqqqqqqq'))?.entity_scopes).toEqual(levels);
    // An empty map is one level everywhere: stored as none.
    await keys.create({ id: 'weft_rrrrrrrrrrrr', key_hash: hash('c'), username: 'pia', entities: [], entity_scopes: {} });
    expect((await keys.find('weft_rrrrrrrrrrrr'))?.entity_scopes).toBeNull();

    // A level on an entity the user may not access would grant nothing: refused, nothing written.
    await expect(
      keys.create({ id: 'weft_ssssssssssss', key_hash: hash('d'), username: 'pia', entities: ['mine'], entity_scopes: { other: 'read' } }),
    ).rejects.toThrow(new ApiKeyError('A scope names "other", which "pia" may not access: grant it with --entity'));
    expect(await keys.find('weft_ssssssssssss')).toBeUndefined();
    expect((await keys.find('weft_qqqqqqqqqqqq'))?.entities).toEqual(['acme', 'lab']);
    // Granted in the same create: accepted.
    await keys.create({
      id: 'weft_tttttttttttt',
      key_hash: hash('e'),
      username: 'pia',
      entities: ['other'],
      entity_scopes: { other: 'read' },
    });
    expect((await keys.find('weft_tttttttttttt'))?.entity_scopes).toEqual({ other: 'read' });
  });
});
