// Scopes, for every operation of the spec (new ones included, as they come from the spec): a
// read-only key is refused with 403 on every operation that declares write or admin access
// (x-weft-access), before anything is read or written, and runs every read; a write key is
// refused only the admin ones. The keys are kept in the database, as `weft keys create
// --read-only` makes them.
import { beforeAll, expect, it } from 'vitest';
import { createApiKeyStore, openDatabase, type NewApiKey } from '@weft/store';
import { generateApiKey, hashApiKey } from '../src/auth/index.ts';
import { apiKeyId } from '../src/auth/keys.ts';
import { operations } from '../src/http/spec.ts';
import { sendExample } from './example-request.ts';
import { describeEachDatabase, type TestServer } from './test-server.ts';

const credentialed = operations.filter((op) => op.schemes.length > 0);

/**
 * Keys kept in the database, as `weft keys create` makes them, and a model of acme's for the
 * model routes' examples: made before the block's tests run.
 */
function withKeys<K extends string>(getServer: () => TestServer, users: Record<K, Omit<NewApiKey, 'id' | 'key_hash'>>, modelName: string) {
  const given = { keys: {} as Record<K, string>, modelId: '' };
  beforeAll(async () => {
    const db = await openDatabase(getServer().databaseUrl, { dataDir: '.' });
    try {
      for (const name of Object.keys(users) as K[]) {
        const key = generateApiKey();
        await createApiKeyStore(db).create({ id: apiKeyId(key)!, key_hash: hashApiKey(key), ...users[name] });
        given.keys[name] = key;
      }
    } finally {
      await db.close();
    }
    const bearer = getServer().client({ scheme: 'bearer', apiKey: getServer().aliceKey });
    given.modelId = (
      await bearer.POST('/v1/preview/models', { body: { entity: 'acme', project: 'support-bot', name: modelName, base_model: 'b' } })
    ).id;
  });
  return given;
}

describeEachDatabase('scopes', (getServer) => {
  const given = withKeys(
    getServer,
    {
      read: { username: 'dashboard-read', entities: ['acme'], scope: 'read' },
      write: { username: 'dashboard-write', entities: ['acme'], scope: 'write' },
    },
    'agent',
  );
  const keys = given.keys;

  it('covers reads and writes: the spec declares both', () => {
    expect(credentialed.filter((op) => op.access === 'read').length).toBeGreaterThan(10);
    expect(credentialed.filter((op) => op.access === 'write').length).toBeGreaterThan(10);
    expect(credentialed.filter((op) => op.access === 'admin').map((op) => op.operationId)).toEqual(['projectTtlSettingsUpdate']);
  });

  for (const op of credentialed) {
    if (op.access === 'read') {
      it(`${op.operationId} (read): a read-only key runs it`, async () => {
        const res = await sendExample(getServer().url, op, keys.read, given.modelId);
        const text = await res.text();
        // Whatever the example finds (a 404 for an id nobody wrote), never a refusal.
        expect(res.status, text).not.toBe(403);
        expect(res.status, text).not.toBe(401);
      });
      continue;
    }
    it(`${op.operationId} (${op.access}): a read-only key gets 403 naming what it needs`, async () => {
      const res = await sendExample(getServer().url, op, keys.read, given.modelId);
      expect(res.status).toBe(403);
      const reason = `This API key has read scope; ${op.operationId} (${op.method.toUpperCase()} ${op.path}) needs ${op.access}`;
      // The router's operations answer errors as OpenAI does (x-weft-errors: openai).
      if (op.errorShape === 'openai') expect(await res.json()).toMatchObject({ error: { message: reason } });
      else expect(await res.json()).toEqual({ reason, error_type: 'Forbidden' });
    });
    it(`${op.operationId} (${op.access}): a write key is ${op.access === 'write' ? 'let through' : 'refused'}`, async () => {
      const res = await sendExample(getServer().url, op, keys.write, given.modelId);
      const text = await res.text();
      if (op.access === 'admin') expect(res.status, text).toBe(403);
      else expect([401, 403], text).not.toContain(res.status);
    });
  }

  it('stores nothing a read-only key sent', async () => {
    const alice = getServer().client('alice');
    const found = await alice.POST('/objs/query', { body: { project_id: 'acme/support-bot', filter: { object_ids: ['scoped-write'] } } });
    expect(found.objs).toEqual([]);
    const objCreate = operations.find((op) => op.operationId === 'objCreate')!;
    const refused = await fetch(`${getServer().url}${objCreate.path}`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`api:${keys.read}`).toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ obj: { project_id: 'acme/support-bot', object_id: 'scoped-write', val: 1 } }),
    });
    expect(refused.status).toBe(403);
    const after = await alice.POST('/objs/query', { body: { project_id: 'acme/support-bot', filter: { object_ids: ['scoped-write'] } } });
    expect(after.objs).toEqual([]);
  });
});

// Levels per entity (`weft keys create --scope write --scope acme=read`): every operation is let
// through on the key's highest level, then checked on the entity it touches. Every example names
// acme's projects, so a key read on acme (write elsewhere) is refused every write, naming acme,
// and a key write on acme (read elsewhere) runs them.
describeEachDatabase('scopes per entity', (getServer) => {
  const given = withKeys(
    getServer,
    {
      readOnAcme: { username: 'mixed-read-on-acme', entities: ['acme', 'lab'], scope: 'write', entity_scopes: { acme: 'read' } },
      writeOnAcme: { username: 'mixed-write-on-acme', entities: ['acme', 'lab'], scope: 'read', entity_scopes: { acme: 'write' } },
    },
    'agent-mixed',
  );
  const keys = given.keys;

  it('tells the key its user and levels through the client (server_info), as Studio reads them; a key with one level has none', async () => {
    const info = (apiKey: string) => getServer().client({ scheme: 'basic', apiKey }).GET('/server_info', {});
    expect(await info(keys.readOnAcme)).toMatchObject({
      svc_user_id: 'mixed-read-on-acme',
      key_scope: 'write',
      key_entity_scopes: { acme: 'read' },
    });
    expect(await info(keys.writeOnAcme)).toMatchObject({
      svc_user_id: 'mixed-write-on-acme',
      key_scope: 'read',
      key_entity_scopes: { acme: 'write' },
    });
    const alice = await info(getServer().aliceKey);
    expect(alice.svc_user_id).toBe('alice');
    expect(alice.key_scope).toBe('admin');
    expect(alice).not.toHaveProperty('key_entity_scopes');
  });

  const messageOf = async (op: (typeof credentialed)[number], res: Response) => {
    const body = (await res.json()) as { reason?: string; error?: { message?: string } };
    return op.errorShape === 'openai' ? body.error?.message : body.reason;
  };

  for (const op of credentialed) {
    if (op.access === 'read') {
      it(`${op.operationId} (read): runs with either key`, async () => {
        for (const key of Object.values(keys)) {
          const res = await sendExample(getServer().url, op, key, given.modelId);
          const text = await res.text();
          expect([401, 403], text).not.toContain(res.status);
        }
      });
      continue;
    }
    const label = `${op.operationId} (${op.method.toUpperCase()} ${op.path})`;
    if (op.access === 'admin') {
      it(`${op.operationId} (admin): refused before its body is read, by the key's highest level`, async () => {
        const res = await sendExample(getServer().url, op, keys.writeOnAcme, given.modelId);
        expect(res.status).toBe(403);
        expect(await messageOf(op, res)).toBe(`This API key has at most write scope; ${label} needs admin`);
      });
      continue;
    }
    it(`${op.operationId} (write): refused on acme where the key reads, naming the entity`, async () => {
      const res = await sendExample(getServer().url, op, keys.readOnAcme, given.modelId);
      expect(res.status).toBe(403);
      expect(await messageOf(op, res)).toBe(`This API key has read scope on entity "acme"; ${label} needs write`);
    });
  }
  // After every refusal: a write let through may delete what the next refusal needs to find
  // (modelDelete before modelLog), and a 404 would hide whether it was refused.
  for (const op of credentialed.filter((o) => o.access === 'write')) {
    it(`${op.operationId} (write): let through on acme where the key writes`, async () => {
      const res = await sendExample(getServer().url, op, keys.writeOnAcme, given.modelId);
      const text = await res.text();
      expect([401, 403], text).not.toContain(res.status);
    });
  }
});
