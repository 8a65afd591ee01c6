// POST /graphql: the documents the Weave Python SDK's weave.init sends (gql prints them with
// graphql-core's printer, as below), answered from Weft's users and entities; anything else is a
// GraphQL error, and another entity's project is refused like every other operation refuses it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './test-server.ts';

const PROJECT = `query Project($name: String!, $entityName: String!) {
  project(name: $name, entityName: $entityName) {
    name
  }
}`;
const UPSERT = `mutation UpsertModel($name: String!, $id: String, $entity: String!, $description: String, $repo: String) {
  upsertModel(
    input: {id: $id, name: $name, entityName: $entity, description: $description, repo: $repo}
  ) {
    model {
      name
      description
    }
  }
}`;
const VIEWER = `query DefaultEntity {
  viewer {
    username
    defaultEntity {
      name
    }
  }
}`;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('sqlite');
});
afterAll(() => server?.close());

/** As gql's HTTPXTransport posts: `{query, variables?}` with Basic `api:<key>`. */
async function gql(payload: Record<string, unknown>, key: string | null = server.aliceKey) {
  const res = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(key !== null && { authorization: `Basic ${Buffer.from(`api:${key}`).toString('base64')}` }),
    },
    body: JSON.stringify(payload),
  });
  return { status: res.status, body: (await res.json()) as { data?: Record<string, unknown> | null; errors?: { message: string }[] } };
}

describe('POST /graphql (weave.init)', () => {
  it('answers the project lookup, the upsert and the viewer for the key', async () => {
    expect(await gql({ query: PROJECT, variables: { entityName: 'acme', name: 'support-bot' } })).toEqual({
      status: 200,
      body: { data: { project: { name: 'support-bot' } } },
    });
    expect(await gql({ query: UPSERT, variables: { name: 'support-bot', entity: 'acme', description: null } })).toEqual({
      status: 200,
      body: { data: { upsertModel: { model: { name: 'support-bot', description: null } } } },
    });
    expect(await gql({ query: VIEWER })).toEqual({
      status: 200,
      body: { data: { viewer: { username: 'alice', defaultEntity: { name: 'acme' } } } },
    });
    const bob = await gql({ query: VIEWER }, server.bobKey);
    expect(bob.body.data).toEqual({ viewer: { username: 'bob', defaultEntity: { name: 'globex' } } });
  });

  it("refuses another entity's project, as every operation does, in GraphQL's errors", async () => {
    const lookup = await gql({ query: PROJECT, variables: { entityName: 'globex', name: 'secret' } });
    expect(lookup.status).toBe(200);
    expect(lookup.body.data).toEqual({ project: null });
    expect(lookup.body.errors?.[0]?.message).toBe('User "alice" may not access entity "globex"');
    const upsert = await gql({ query: UPSERT, variables: { name: 'secret', entity: 'globex', description: null } });
    expect(upsert.body.errors?.[0]?.message).toContain('may not access entity "globex"');
  });

  it('refuses what it would not keep: a description, an id or a repo on upsert', async () => {
    const described = await gql({ query: UPSERT, variables: { name: 'bot', entity: 'acme', description: 'my bot' } });
    expect(described.body.errors?.[0]?.message).toContain("does not store a project's description");
    expect(described.body.data).toEqual({ upsertModel: null });
  });

  it('answers any other document with a GraphQL error, never a guess', async () => {
    const cases: Array<[string, RegExp]> = [
      ['{ viewer { apiKeys { edges { node { id } } } } }', /Cannot query field "apiKeys" on type "User"/],
      ['query { models(entityName: "acme") { edges { node { name } } } }', /Cannot query field "models" on type "Query"/],
      ['query { viewer { username }', /Syntax Error/],
      ['subscription { viewer { username } }', /does not support subscriptions|Schema is not configured/],
      ['query A { viewer { username } } query B { viewer { entity } }', /Must provide operation name/],
      [PROJECT, /Variable "\$name" of required type "String!" was not provided/],
    ];
    for (const [query, message] of cases) {
      const { status, body } = await gql({ query });
      expect(status, query).toBe(200);
      expect(body.errors?.map((e) => e.message).join('\n'), query).toMatch(message);
    }
    // With an operation name, one of several operations runs.
    const named = await gql({ query: 'query A { viewer { username } } query B { viewer { entity } }', operationName: 'B' });
    expect(named.body).toEqual({ data: { viewer: { entity: 'acme' } } });
  });

  it('bounds the work a hostile document can ask for', async () => {
    const many = `{ ${Array.from({ length: 1000 }, (_, i) => `a${i}: viewer { username }`).join(' ')} }`;
    const { status, body } = await gql({ query: many });
    expect(status).toBe(200);
    expect(body.errors?.[0]?.message).toMatch(/more that 5000 tokens/);
  });

  it('needs a key like every other operation', async () => {
    expect((await gql({ query: VIEWER }, null)).status).toBe(401);
    expect((await gql({ query: VIEWER }, 'weft_' + 'x'.repeat(40))).status).toBe(401);
  });
});
