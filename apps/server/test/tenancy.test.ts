// Tenancy, for every operation of the spec (new ones included, as they come from the spec): a key
// of another entity is refused with 403 before anything is read or written, and the answer leaks
// nothing of the owner's data. Requests are the spec's own examples, so they are valid.
import { beforeAll, expect, it } from 'vitest';
import type { OpenApiDocument, SpecOperation } from '@weft/types/spec';
import { deref } from '@weft/types/spec';
import { operations, spec } from '../src/http/spec.ts';
import { describeEachDatabase } from './test-server.ts';

const doc = spec as unknown as OpenApiDocument;
const SECRET = 'launch-on-friday';

function exampleBody(op: SpecOperation): unknown {
  const item = doc.paths[op.path]?.[op.method as 'post'];
  if (!item?.requestBody) return undefined;
  const media = deref(doc, item.requestBody).content[op.requestMediaTypes[0] ?? 'application/json'] as
    { examples?: Record<string, { value: unknown }> } | undefined;
  const first = Object.values(media?.examples ?? {})[0]?.value;
  // Every example names acme's projects: alice's entity, not bob's.
  return first === undefined ? undefined : (JSON.parse(JSON.stringify(first).replaceAll('"entity":null', '"entity":"acme"')) as unknown);
}

describeEachDatabase('tenancy', (getServer) => {
  let modelId = '';
  beforeAll(async () => {
    const alice = getServer().client('alice');
    await alice.POST('/obj/create', { body: { obj: { project_id: 'acme/support-bot', object_id: 'plan', val: { secret: SECRET } } } });
    const bearer = getServer().client({ scheme: 'bearer', apiKey: getServer().aliceKey });
    modelId = (
      await bearer.POST('/v1/preview/models', { body: { entity: 'acme', project: 'support-bot', name: 'agent', base_model: 'b' } })
    ).id;
  });

  // serverInfo names no tenant; projectsList names none either and answers only the key's own
  // entities (projects.test.ts shows bob never sees acme's projects); graphqlQuery answers
  // GraphQL's way, a 200 with `errors` (graphql.test.ts shows another entity's project refused);
  // routerEndpointsList is the replica's view of its providers, the same for every caller.
  const untenanted = new Set(['serverInfo', 'projectsList', 'graphqlQuery', 'routerEndpointsList']);
  for (const op of operations.filter((o) => o.schemes.length > 0 && !untenanted.has(o.operationId))) {
    it(`${op.operationId}: another entity's key gets 403 and learns nothing`, async () => {
      const { url, bobKey } = getServer();
      const scheme = op.schemes[0];
      const headers: Record<string, string> = {
        authorization: scheme === 'bearer' ? `Bearer ${bobKey}` : `Basic ${Buffer.from(`api:${bobKey}`).toString('base64')}`,
      };
      // The router's operations name the project in a header (the `openai` client's `project`).
      if (op.parameters.some((p) => p.in === 'header' && p.name === 'OpenAI-Project')) headers['openai-project'] = 'acme/support-bot';
      const body = exampleBody(op);
      let payload: BodyInit | undefined;
      if (op.bodyMode === 'multipart') {
        const form = new FormData();
        form.set('project_id', 'acme/support-bot');
        form.set('file', new Blob(['x']), 'x.txt');
        payload = form;
      } else if (body !== undefined) {
        headers['content-type'] = op.requestMediaTypes[0] ?? 'application/json';
        payload = JSON.stringify(body);
      }
      // Other path parameters from their examples (acme's object and its version).
      const path = op.path
        .replace('{model_id}', modelId)
        .replace('{queue_id}', '0197331d-02aa-7d5c-a1e3-4f6b8c9d0e12')
        .replace(/\{([^}]+)\}/g, (_m, name: string) =>
          encodeURIComponent(String((op.parameters.find((p) => p.name === name) as { example?: unknown } | undefined)?.example)),
        );
      // Required query parameters from their examples, which name acme's projects too.
      const required = op.parameters.filter((p) => p.in === 'query' && p.required === true);
      const query =
        required.length > 0 ? `?${new URLSearchParams(required.map((p) => [p.name, String((p as { example?: unknown }).example)]))}` : '';
      const res = await fetch(`${url}${path}${query}`, { method: op.method.toUpperCase(), headers, body: payload });
      const text = await res.text();
      expect(res.status, text).toBe(403);
      expect(text).not.toContain(SECRET);
    });
  }
});
