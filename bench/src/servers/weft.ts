// Weft as the bench runs it: a child process configured as in production (no response
// validation, no logging), an auth file with one generated key, and a body limit that fits the
// table/create scenario's 100,000 rows.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatAuthFile, generateApiKey, hashApiKey } from '@weft/server/src/auth/index.ts';
import { spawnServer, type ServerProcess } from './spawn.ts';

/** The bench's projects all belong to this entity. */
export const ENTITY = 'bench';

export interface Credentials {
  authFile: string;
  /** The key itself, as a person pastes it into Studio's sign-in screen. */
  key: string;
  /** Headers of every request: Basic auth as the Weave SDK sends it, JSON body. */
  headers: Record<string, string>;
  /** The same key as a Bearer token, as ART sends it. */
  bearerHeaders: Record<string, string>;
}

export function writeCredentials(dir: string): Credentials {
  const key = generateApiKey();
  const authFile = join(dir, 'auth.yaml');
  writeFileSync(authFile, formatAuthFile({ users: [{ username: 'bench', entities: [ENTITY], apiKeyHashes: [hashApiKey(key)] }] }));
  return {
    authFile,
    key,
    headers: { authorization: `Basic ${Buffer.from(`api:${key}`).toString('base64')}`, 'content-type': 'application/json' },
    bearerHeaders: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
  };
}

export function startWeft(
  databaseUrl: string,
  dataDir: string,
  creds: Credentials,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  return spawnServer('weft', {
    NODE_ENV: 'production',
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    AUTH_FILE: creds.authFile,
    LOG_LEVEL: 'silent',
    VALIDATE_RESPONSES: '0',
    // 100,000 evaluation rows are ~55 MB of JSON; the default 32mb is for ordinary requests.
    BODY_LIMIT: '128mb',
    ...env,
  });
}
