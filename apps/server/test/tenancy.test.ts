// Tenancy, for every operation of the spec (new ones included, as they come from the spec): a key
// of another entity is refused with 403 before anything is read or written, and the answer leaks
// nothing of the owner's data. Requests are the spec's own examples, so they are valid.
import { beforeAll, expect, it } from 'vitest';
import { operations } from '../src/http/spec.ts';
import { sendExample } from './example-request.ts';
import { describeEachDatabase } from './test-server.ts';

const SECRET = 'launch-on-friday';

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
      const res = await sendExample(url, op, bobKey, modelId);
      const text = await res.text();
      expect(res.status, text).toBe(403);
      expect(text).not.toContain(SECRET);
    });
  }
});
