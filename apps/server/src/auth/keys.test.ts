import { describe, expect, it } from 'vitest';
import { createKeyVerifier, generateApiKey, hashApiKey, isApiKeyHash } from './keys.ts';

describe('generateApiKey', () => {
  it('produces weft_-prefixed base64url keys that differ each time', () => {
    const a = generateApiKey();
    const b = generateApiKey();
    expect(a).toMatch(/^weft_[A-Za-z0-9_-]{40}$/);
    expect(a).not.toBe(b);
  });
});

describe('hashApiKey', () => {
  it('is the sha256 hex digest in the stored format', () => {
    // sha256("abc") is a published test vector.
    expect(hashApiKey('abc')).toBe('sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(isApiKeyHash(hashApiKey(generateApiKey()))).toBe(true);
  });

  it('rejects anything but lowercase 64-hex hashes as a stored hash', () => {
    expect(isApiKeyHash('sha256:' + 'A'.repeat(64))).toBe(false);
    expect(isApiKeyHash('sha256:' + 'a'.repeat(63))).toBe(false);
    expect(isApiKeyHash(generateApiKey())).toBe(false);
  });
});

describe('createKeyVerifier', () => {
  it('finds the owner of a presented key and nothing for unknown keys', () => {
    const k1 = generateApiKey();
    const k2 = generateApiKey();
    const verify = createKeyVerifier([
      { hash: hashApiKey(k1), owner: 'alice' },
      { hash: hashApiKey(k2), owner: 'bob' },
    ]);
    expect(verify(k1)).toBe('alice');
    expect(verify(k2)).toBe('bob');
    expect(verify(generateApiKey())).toBeUndefined();
    expect(verify('')).toBeUndefined();
    // Presenting the stored hash instead of the key must not work.
    expect(verify(hashApiKey(k1))).toBeUndefined();
  });

  it('refuses to be built from a plaintext key', () => {
    expect(() => createKeyVerifier([{ hash: generateApiKey(), owner: 'x' }])).toThrow(/not a sha256 hash/);
  });
});
