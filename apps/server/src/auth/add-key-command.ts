/**
 * `weft keys add`: mint a key for a user and record only its hash.
 *
 * Creates the auth file and the user when missing. An existing file is
 * edited as a YAML document rather than re-serialized, so operators'
 * comments and layout survive. The result is re-validated before it is
 * written, so the command can never leave behind a file the server rejects.
 */
import { readFileSync } from 'node:fs';
import { parseDocument, type YAMLSeq } from 'yaml';
import { formatAuthFile, parseAuthFile, scopeField } from './auth-file.ts';
import { writeFileAtomic } from './atomic-write.ts';
import { generateApiKey, hashApiKey } from './keys.ts';
import { describeScope, type KeyScope } from './key-scope.ts';

export interface AddKeyRequest {
  readonly file: string;
  readonly username: string;
  /** Required when the user is new; for an existing user, entities not yet granted are added. */
  readonly entities: readonly string[];
  /**
   * What the key may do. The file keeps one scope per user: a new user gets it; an existing
   * user's must already be this one. Unset: admin for a new user, the user's own for an existing one.
   */
  readonly scope?: KeyScope | undefined;
}

export interface AddKeyResult {
  /** The plaintext key. Show it once; only its hash was stored. */
  readonly key: string;
  readonly createdFile: boolean;
  readonly createdUser: boolean;
  /** Entities newly granted to an existing user. */
  readonly grantedEntities: readonly string[];
}

const NEW_FILE_HEADER = `Weft auth file. Keys are stored only as SHA-256 hashes.
Add keys with: weft keys add --file <this file> --user <name> --entity <entity>`;

export function addApiKey(request: AddKeyRequest): AddKeyResult {
  const { file, username } = request;
  const entities = [...new Set(request.entities)];
  const key = generateApiKey();
  const hash = hashApiKey(key);

  const existing = readIfExists(file);
  if (existing === undefined) {
    requireEntities(entities, username);
    const text = formatAuthFile({ users: [{ username, entities, apiKeyHashes: [hash], ...request.scope }] }, NEW_FILE_HEADER);
    checkBeforeWrite(text, file);
    writeFileAtomic(file, text, { exclusive: true });
    return { key, createdFile: true, createdUser: true, grantedEntities: [] };
  }

  // Refuse to touch a file that is already invalid; the error lists why.
  const config = parseAuthFile(existing, file);
  const doc = parseDocument(existing);
  // Validation passed, so config.users lines up index-for-index with the YAML list.
  const index = config.users.findIndex((u) => u.username === username);
  let createdUser = false;
  let grantedEntities: string[] = [];
  if (index < 0) {
    requireEntities(entities, username);
    const scope = scopeField({ username, entities, apiKeyHashes: [], ...request.scope });
    doc.addIn(['users'], doc.createNode({ username, entities, ...scope, api_keys: [hash] }));
    createdUser = true;
  } else {
    const user = config.users[index]!;
    const held = describeScope({ scope: user.scope ?? 'admin', ...(user.entityScopes ? { entityScopes: user.entityScopes } : {}) });
    if (request.scope !== undefined && describeScope(request.scope) !== held)
      throw new Error(
        `User "${username}" has scope ${held} in ${file}, for all of its keys: a key with scope ${describeScope(request.scope)} needs a user of its own (another --user)`,
      );
    grantedEntities = entities.filter((e) => !user.entities.includes(e));
    for (const entity of grantedEntities) doc.addIn(['users', index, 'entities'], entity);
    (doc.getIn(['users', index, 'api_keys']) as YAMLSeq).add(doc.createNode(hash));
  }
  const text = doc.toString();
  checkBeforeWrite(text, file);
  writeFileAtomic(file, text);
  return { key, createdFile: false, createdUser, grantedEntities };
}

function requireEntities(entities: readonly string[], username: string): void {
  if (entities.length === 0) {
    throw new Error(`User "${username}" does not exist yet: give at least one --entity it may access`);
  }
}

function checkBeforeWrite(text: string, file: string): void {
  try {
    parseAuthFile(text, file);
  } catch (err) {
    throw new Error(`Not writing ${file}; the result would be invalid.\n${(err as Error).message}`, { cause: err });
  }
}

function readIfExists(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
