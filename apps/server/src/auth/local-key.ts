/**
 * Zero-config first start: with no AUTH_FILE configured the server keeps its
 * own `<dataDir>/auth.yaml`, creating it with a single user `local` who may
 * access every entity (`entities: ["*"]`, since SDK users pick entity names
 * freely in `init('entity/project')`). Its default entity is `local`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AuthFileNotFoundError, formatAuthFile, loadAuthFile } from './auth-file.ts';
import { ALL_ENTITIES, type AuthConfig } from './auth-types.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { generateApiKey, hashApiKey } from './keys.ts';

export const LOCAL_AUTH_FILE = 'auth.yaml';
export const LOCAL_USERNAME = 'local';

const HEADER = `Weft auth file, created on first start for local single-user use.
Keys are stored only as SHA-256 hashes. Add more with:
  weft keys add --file <this file> --user ${LOCAL_USERNAME}
entities: ["*"] means "every entity"; list names explicitly for multi-user setups.`;

/**
 * Loads `<dataDir>/auth.yaml`, creating it on first start. `newKey` is the
 * plaintext key, returned only on the start that created it, so the server
 * can print it exactly once; it is not recoverable afterwards.
 */
export function ensureLocalAuth(dataDir: string): { config: AuthConfig; newKey?: string } {
  const path = join(dataDir, LOCAL_AUTH_FILE);
  try {
    return { config: loadAuthFile(path) };
  } catch (err) {
    if (!(err instanceof AuthFileNotFoundError)) throw err;
  }

  const newKey = generateApiKey();
  const config: AuthConfig = {
    users: [{ username: LOCAL_USERNAME, entities: [ALL_ENTITIES], apiKeyHashes: [hashApiKey(newKey)] }],
  };
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileAtomic(path, formatAuthFile(config, HEADER), { exclusive: true });
  } catch (err) {
    // Another process created it between our read and write: use theirs,
    // and do not announce a key that was never stored.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return { config: loadAuthFile(path) };
    throw err;
  }
  return { config, newKey };
}
