import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuthFileNotFoundError, formatAuthFile, loadAuthFile, parseAuthFile } from './auth-file.ts';
import { generateApiKey, hashApiKey } from './keys.ts';

const H1 = hashApiKey('key-one');
const H2 = hashApiKey('key-two');

function problemsOf(text: string): string {
  try {
    parseAuthFile(text, 'test.yaml');
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected parseAuthFile to fail');
}

describe('parseAuthFile', () => {
  it('reads users, entities and key hashes', () => {
    const config = parseAuthFile(
      `users:
  - username: alice
    entities: [acme, alice]
    api_keys: ["${H1}"]
  - username: local
    entities: ["*"]
    api_keys: [${H2}]
`,
      'test.yaml',
    );
    expect(config.users).toEqual([
      { username: 'alice', entities: ['acme', 'alice'], apiKeyHashes: [H1] },
      { username: 'local', entities: ['*'], apiKeyHashes: [H2] },
    ]);
  });

  it('reports every problem at once, each with its path', () => {
    const message = problemsOf(`users:
  - username: alice
    entities: [acme]
    api_keys: ["${H1}"]
  - username: alice
    entities: []
    api_keys: ["${H1}", "sha256:ABC"]
  - username: ""
    entities: [a/b]
    api_keys: []
    api_key: x
  - username: 123
    api_keys: "${H2}"
`);
    expect(message).toContain('Invalid auth file test.yaml:');
    expect(message).toContain('users[1].username: duplicate username "alice" (also at users[0].username)');
    expect(message).toContain('users[1].entities: expected at least one entity');
    expect(message).toContain('users[1].api_keys[0]: key hash is also used by another user (users[0].api_keys[0])');
    expect(message).toContain('users[1].api_keys[1]: expected "sha256:<64 hex chars>"');
    expect(message).toContain('users[2].username: must not be empty');
    expect(message).toContain('users[2].entities[0]: "a/b" must not contain "/"');
    expect(message).toContain('users[2].api_key: unknown field');
    expect(message).toContain('users[3].username: expected a string');
    expect(message).toContain('users[3].entities: required');
    expect(message).toContain('users[3].api_keys: expected a list');
    // One problem per line, so the operator sees them all in one go.
    expect(message.split('\n').filter((l) => l.startsWith('  - ')).length).toBe(10);
  });

  it('rejects a plaintext key, points to the CLI, and does not echo the key', () => {
    const plain = generateApiKey();
    const message = problemsOf(`users:
  - username: alice
    entities: [acme]
    api_keys: ["${plain}"]
`);
    expect(message).toContain('users[0].api_keys[0]: expected "sha256:<64 hex chars>"');
    expect(message).toContain('weft keys add');
    expect(message).not.toContain(plain);
  });

  it('rejects a file without users or with a wrong top-level shape', () => {
    expect(problemsOf('')).toContain('expected a mapping with a "users" list');
    expect(problemsOf('users: []\n')).toContain('users: expected at least one user');
    expect(problemsOf('users: {}\nextra: 1\n')).toMatch(/extra: unknown field[\s\S]*users: expected a list/);
  });

  it('reports YAML syntax errors with line and column, without quoting the source', () => {
    const plain = generateApiKey();
    const message = problemsOf(`users:\n  - username: alice\n    api_keys: [${plain}\n`);
    expect(message).toMatch(/line \d+, column \d+:/);
    expect(message).not.toContain(plain);
    expect(problemsOf('users: 1\nusers: 2\n')).toMatch(/line 2, column 1: Map keys must be unique/);
  });
});

describe('loadAuthFile', () => {
  it('names the path when the file is missing', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'weft-auth-')), 'nope.yaml');
    expect(() => loadAuthFile(path)).toThrow(AuthFileNotFoundError);
    expect(() => loadAuthFile(path)).toThrow(path);
  });

  it('names the path when the file is invalid', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'weft-auth-')), 'auth.yaml');
    writeFileSync(path, 'users: []\n');
    expect(() => loadAuthFile(path)).toThrow(`Invalid auth file ${path}:`);
  });
});

describe('auth file scopes', () => {
  it('reads a user scope and refuses an unknown one', () => {
    const text = `users:\n  - username: dash\n    entities: [acme]\n    scope: read\n    api_keys: ["${H1}"]\n`;
    expect(parseAuthFile(text, 't').users[0]?.scope).toBe('read');
    expect(() => parseAuthFile(text.replace('scope: read', 'scope: owner'), 't')).toThrow(
      'users[0].scope: expected one of read, write, admin',
    );
  });

  it('reads levels per entity, "*" for the others (admin when absent), and refuses what would grant nothing', () => {
    const user = (scope: string, entities = '[acme, lab]') =>
      `users:\n  - username: rev\n    entities: ${entities}\n    scope: ${scope}\n    api_keys: ["${H1}"]\n`;
    expect(parseAuthFile(user('{"*": read, lab: write}'), 't').users[0]).toMatchObject({ scope: 'read', entityScopes: { lab: 'write' } });
    expect(parseAuthFile(user('{acme: read}'), 't').users[0]).toMatchObject({ scope: 'admin', entityScopes: { acme: 'read' } });
    // "*" alone is one level everywhere.
    expect(parseAuthFile(user('{"*": write}'), 't').users[0]).toEqual(expect.not.objectContaining({ entityScopes: expect.anything() }));
    expect(parseAuthFile(user('{"*": write}'), 't').users[0]?.scope).toBe('write');
    // Any entity, for a user of every entity.
    expect(parseAuthFile(user('{far: read}', '["*"]'), 't').users[0]?.entityScopes).toEqual({ far: 'read' });
    const problems = (scope: string) => () => parseAuthFile(user(scope), 't');
    expect(problems('{lab: owner}')).toThrow('users[0].scope.lab: expected one of read, write, admin');
    expect(problems('{elsewhere: read}')).toThrow("users[0].scope.elsewhere: not one of this user's entities");
    expect(problems('{"a/b": read}')).toThrow('users[0].scope.a/b: not an entity name');
    expect(problems('[read]')).toThrow('users[0].scope: expected one of read, write, admin, or a mapping');
  });
});

describe('formatAuthFile', () => {
  it('round-trips through parseAuthFile, including the "*" wildcard', () => {
    const config = {
      users: [
        { username: 'local', entities: ['*'], apiKeyHashes: [H1] },
        { username: 'alice', entities: ['acme', 'alice'], apiKeyHashes: [] },
        { username: 'dashboard', entities: ['acme'], apiKeyHashes: [], scope: 'read' as const },
        {
          username: 'reviewer',
          entities: ['acme', 'lab'],
          apiKeyHashes: [],
          scope: 'read' as const,
          entityScopes: { lab: 'write' as const },
        },
        {
          username: 'narrow',
          entities: ['acme', 'lab'],
          apiKeyHashes: [],
          scope: 'admin' as const,
          entityScopes: { lab: 'read' as const },
        },
      ],
    };
    const text = formatAuthFile(config, 'header line\n\nmore');
    expect(text).toContain('scope: read');
    expect(text.startsWith('# header line\n#\n# more\n')).toBe(true);
    expect(parseAuthFile(text, 'roundtrip')).toEqual(config);
  });
});
