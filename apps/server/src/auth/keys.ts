/**
 * API key generation, hashing and constant-time verification.
 *
 * Keys are only ever stored as `sha256:<hex>` hashes. A plain (unsalted,
 * fast) SHA-256 is enough here because keys are 240 random bits, not
 * human-chosen passwords: there is nothing for a dictionary attack to find.
 *
 * Never log a key or pass one into an error message.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const API_KEY_PREFIX = 'weft_';
const KEY_HASH_PATTERN = /^sha256:[0-9a-f]{64}$/;

/** A new random key: `weft_` + 40 base64url chars (30 random bytes). */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(30).toString('base64url');
}

const KEY_PATTERN = /^weft_[A-Za-z0-9_-]{40}$/;
/** How many characters of a key (after `weft_`) form its public id. 72 random bits: ids do not collide. */
const KEY_ID_CHARS = 12;

/**
 * A key's public id, `weft_` and its first 12 characters: how a key kept in the database is found
 * and named (`weft keys list`, logs). Not a secret, and not enough to authenticate: the remaining
 * 168 random bits are only ever compared through the hash. Undefined for anything not shaped like
 * a Weft key.
 */
export function apiKeyId(key: string): string | undefined {
  return KEY_PATTERN.test(key) ? key.slice(0, API_KEY_PREFIX.length + KEY_ID_CHARS) : undefined;
}

/** Whether a presented key hashes to the stored hash, compared in constant time. */
export function keyMatchesHash(presentedKey: string, hash: string): boolean {
  if (!isApiKeyHash(hash)) return false;
  return timingSafeEqual(digest(presentedKey), Buffer.from(hash.slice('sha256:'.length), 'hex'));
}

/** The stored form of a key: `sha256:<64 lowercase hex>`. */
export function hashApiKey(key: string): string {
  return 'sha256:' + digest(key).toString('hex');
}

export function isApiKeyHash(value: string): boolean {
  return KEY_HASH_PATTERN.test(value);
}

function digest(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/**
 * Builds a lookup from presented key to owner.
 *
 * Verification hashes the presented key, then compares the digest with EVERY
 * stored digest using `timingSafeEqual` and never exits early, so the time
 * taken depends only on how many keys are configured, not on which (if any)
 * matched or how many leading bytes agreed. We deliberately avoid a Map keyed
 * by the digest: its hashing/bucket compare time would depend on
 * secret-derived bytes. Exploiting that through SHA-256 is impractical, but
 * the linear scan costs microseconds for the handful of keys a Weft server
 * has, so we take the argument off the table.
 */
export function createKeyVerifier<T>(
  entries: Iterable<{ readonly hash: string; readonly owner: T }>,
): (presentedKey: string) => T | undefined {
  const stored: { digest: Buffer; owner: T }[] = [];
  for (const { hash, owner } of entries) {
    if (!isApiKeyHash(hash)) throw new Error('createKeyVerifier: stored key is not a sha256 hash');
    stored.push({ digest: Buffer.from(hash.slice('sha256:'.length), 'hex'), owner });
  }
  return (presentedKey) => {
    const presented = digest(presentedKey);
    let match: T | undefined;
    for (const entry of stored) {
      // Both buffers are 32 bytes, as timingSafeEqual requires.
      const equal = timingSafeEqual(presented, entry.digest);
      // Keep the first match but keep scanning: no early exit.
      if (equal && match === undefined) match = entry.owner;
    }
    return match;
  };
}
