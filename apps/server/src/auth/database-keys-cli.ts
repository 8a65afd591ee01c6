// `weft keys create | list | revoke | rotate`: API keys kept in the database (DATABASE_URL), which
// every replica reads on each request, so a revoke holds everywhere at once. (`weft keys add`
// still edits an auth file: auth/cli.ts.) A key is printed once, alone on stdout so that
// `KEY=$(weft keys create …)` works; everything meant for a person goes to stderr.
import { ApiKeyError, type ApiKeyInfo, type ApiKeyStore } from '@weft/store';
import type { CliIo } from './cli.ts';
import { apiKeyId, generateApiKey, hashApiKey } from './keys.ts';
import { describeScope, type KeyScope } from './key-scope.ts';
import { columns } from '../cli/columns.ts';

/** The key table of the configured database, opened (and migrated) for one command. */
export interface KeyDatabase {
  keys: ApiKeyStore;
  /** Where, for messages: a redacted URL or the SQLite path. */
  where: string;
  close(): Promise<void>;
}

export type OpenKeyDatabase = () => Promise<KeyDatabase>;

async function withKeys(open: OpenKeyDatabase, io: CliIo, work: (db: KeyDatabase) => Promise<number>): Promise<number> {
  const db = await open();
  try {
    return await work(db);
  } catch (err) {
    if (!(err instanceof ApiKeyError)) throw err;
    io.stderr.write(`Error: ${err.message}\n`);
    return 1;
  } finally {
    await db.close();
  }
}

/** A fresh key and its id; a new id that collides (72 random bits: never in practice) is retried by the caller's insert failing loudly. */
function mintKey(): { key: string; id: string; key_hash: string } {
  const key = generateApiKey();
  return { key, id: apiKeyId(key)!, key_hash: hashApiKey(key) };
}

export function createKeyCommand(
  open: OpenKeyDatabase,
  opts: { user: string; entity?: string[]; name?: string; scope?: KeyScope },
  io: CliIo,
) {
  return withKeys(open, io, async ({ keys, where }) => {
    const { key, id, key_hash } = mintKey();
    const scope = opts.scope ?? { scope: 'admin' };
    const result = await keys.create({
      id,
      key_hash,
      username: opts.user,
      entities: opts.entity ?? [],
      name: opts.name,
      scope: scope.scope,
      entity_scopes: scope.entityScopes,
    });
    const notes: string[] = [];
    if (result.createdUser) notes.push(`Added user "${opts.user}" with access to: ${(opts.entity ?? []).join(', ')}.`);
    if (result.grantedEntities.length > 0) notes.push(`Granted "${opts.user}" access to: ${result.grantedEntities.join(', ')}.`);
    io.stdout.write(`${key}\n`);
    io.stderr.write(
      `${[...notes, `New API key ${id}… for "${opts.user}"${scopeNote(scope)} printed above (in ${where}). Store it now: it will not be shown again.`].join('\n')}\n`,
    );
    return 0;
  });
}

export function listKeysCommand(open: OpenKeyDatabase, opts: { user?: string; all?: boolean; json?: boolean }, io: CliIo) {
  return withKeys(open, io, async ({ keys, where }) => {
    const list = await keys.list({ username: opts.user, include_revoked: opts.all === true });
    if (opts.json) {
      io.stdout.write(`${JSON.stringify(list.map((k) => ({ ...k, state: stateOf(k) })))}\n`);
      return 0;
    }
    if (list.length === 0) {
      io.stderr.write(
        `No ${opts.all ? '' : 'active '}keys in ${where}${opts.user ? ` for "${opts.user}"` : ''}. Create one with: weft keys create --user <name> --entity <entity>\n`,
      );
      return 0;
    }
    const head = ['ID', 'USER', 'ENTITIES', 'SCOPE', 'NAME', 'CREATED', 'LAST USED', 'STATE'];
    const rows = list.map((k) => [
      k.id,
      k.username,
      k.entities.join(','),
      describeScope({ scope: k.scope, ...(k.entity_scopes ? { entityScopes: k.entity_scopes } : {}) }),
      k.name ?? '',
      minute(k.created_at),
      minute(k.last_used_at) || 'never',
      stateOf(k),
    ]);
    io.stdout.write(columns([head, ...rows]));
    return 0;
  });
}

export function revokeKeyCommand(open: OpenKeyDatabase, id: string, io: CliIo) {
  return withKeys(open, io, async ({ keys, where }) => {
    if (!(await keys.revoke(id))) {
      io.stderr.write(`Error: no key ${id} in ${where} (weft keys list --all shows them)\n`);
      return 1;
    }
    io.stderr.write(`Revoked ${id}: every server on this database refuses it from its next request.\n`);
    return 0;
  });
}

export function rotateKeyCommand(open: OpenKeyDatabase, id: string, opts: { grace?: string }, io: CliIo) {
  const graceMs = opts.grace === undefined ? 0 : parseDuration(opts.grace);
  if (graceMs === undefined) {
    io.stderr.write(`Error: --grace must be a duration such as 90s, 15m, 12h or 7d, got "${opts.grace}"\n`);
    return Promise.resolve(2);
  }
  return withKeys(open, io, async ({ keys }) => {
    const { key, id: newId, key_hash } = mintKey();
    const expiresAt = graceMs > 0 ? new Date(Date.now() + graceMs).toISOString() : null;
    const created = await keys.rotate(id, { id: newId, key_hash }, expiresAt);
    io.stdout.write(`${key}\n`);
    io.stderr.write(
      `New API key ${newId}… for "${created.username}" printed above; store it now: it will not be shown again.\n` +
        (expiresAt ? `The old key ${id} keeps working until ${expiresAt}.\n` : `The old key ${id} is revoked.\n`),
    );
    return 0;
  });
}

/** Nothing for a key that may do everything; ` (scope: read; acme=write)` otherwise. */
export function scopeNote(scope: KeyScope): string {
  return scope.scope === 'admin' && !scope.entityScopes ? '' : ` (scope: ${describeScope(scope)})`;
}

function stateOf(k: ApiKeyInfo): string {
  if (k.revoked_at) return `revoked ${minute(k.revoked_at)}`;
  if (k.expires_at) return k.expires_at <= new Date().toISOString() ? `expired ${minute(k.expires_at)}` : `expires ${minute(k.expires_at)}`;
  return 'active';
}

/** `2026-01-02T03:04:05.678Z` → `2026-01-02 03:04Z`: enough to recognise a key by. */
function minute(iso: string | null): string {
  return iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}Z` : '';
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `90s`, `15m`, `12h`, `7d` (up to a year) → milliseconds; undefined for anything else. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d{1,6})([smhd])$/.exec(text.trim());
  if (!match) return undefined;
  const ms = Number(match[1]) * UNIT_MS[match[2]!]!;
  return ms <= 366 * UNIT_MS.d! ? ms : undefined;
}
