import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAuthenticator } from './authenticator.ts';
import { ensureLocalAuth } from './local-key.ts';

const freshDir = () => join(mkdtempSync(join(tmpdir(), 'weft-local-')), 'data');

describe('ensureLocalAuth', () => {
  it('creates auth.yaml on first start and returns a key that works for any entity', async () => {
    const dir = freshDir();
    const { config, newKey } = ensureLocalAuth(dir);
    expect(newKey).toMatch(/^weft_/);

    const auth = createAuthenticator(config);
    const result = await auth.authenticate(`Bearer ${newKey}`, 'bearer');
    if (!result.ok) throw new Error(result.reason);
    expect(result.principal.username).toBe('local');
    expect(auth.authorizeProject(result.principal, 'my-team/my-project')).toEqual({ ok: true });
    expect(auth.defaultEntity(result.principal)).toBe('local');
  });

  it('stores only the hash, owner-readable only, with no temp files left behind', () => {
    const dir = freshDir();
    const { newKey } = ensureLocalAuth(dir);
    const path = join(dir, 'auth.yaml');
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain(newKey);
    expect(text).toMatch(/sha256:[0-9a-f]{64}/);
    expect(text).toContain('"*"');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['auth.yaml']);
  });

  it('on later starts returns the same users and no new key', async () => {
    const dir = freshDir();
    const first = ensureLocalAuth(dir);
    const second = ensureLocalAuth(dir);
    expect(second.newKey).toBeUndefined();
    expect(second.config).toEqual(first.config);
    const auth = createAuthenticator(second.config);
    expect((await auth.authenticate(`Bearer ${first.newKey}`, 'bearer')).ok).toBe(true);
  });

  it('refuses to start over an invalid file rather than replacing it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-local-'));
    writeFileSync(join(dir, 'auth.yaml'), 'users: [oops]\n');
    expect(() => ensureLocalAuth(dir)).toThrow(/Invalid auth file .*auth\.yaml/);
    expect(readFileSync(join(dir, 'auth.yaml'), 'utf8')).toBe('users: [oops]\n');
  });
});
