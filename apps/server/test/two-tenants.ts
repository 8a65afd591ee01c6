// The auth file of the server tests: alice, member of entity `acme`, and bob, of `globex` only,
// each with a fresh key (stored hashed, as the server keeps them).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatAuthFile, generateApiKey, hashApiKey } from '../src/auth/index.ts';

export interface TwoTenants {
  authFile: string;
  aliceKey: string;
  bobKey: string;
}

/** Writes `<dir>/auth.yaml` with alice and bob, and answers their keys. */
export function writeTwoTenants(dir: string): TwoTenants {
  const aliceKey = generateApiKey();
  const bobKey = generateApiKey();
  const authFile = join(dir, 'auth.yaml');
  writeFileSync(
    authFile,
    formatAuthFile({
      users: [
        { username: 'alice', entities: ['acme'], apiKeyHashes: [hashApiKey(aliceKey)] },
        { username: 'bob', entities: ['globex'], apiKeyHashes: [hashApiKey(bobKey)] },
      ],
    }),
  );
  return { authFile, aliceKey, bobKey };
}
