// A frontend built against the mock can rehearse the server's failures: `Prefer: code=503` on any
// operation that reaches the database answers the documented DatabaseUnavailable body with
// Retry-After, `Prefer: example=deadline` the DeadlineExceeded one, and `Prefer: code=507` on a
// write the InsufficientStorage body. Every such answer matches the spec.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createSpecValidator, loadSpec, SPEC_FILE, specOperations } from '../src/index.ts';
import { startPrism, type RunningPrism } from './start-prism.ts';

const doc = loadSpec();
const validator = createSpecValidator(doc);
const operations = specOperations(doc);
let prism: RunningPrism | undefined;

beforeAll(async () => {
  prism = await startPrism(SPEC_FILE);
});
afterAll(async () => {
  await prism?.stop();
});

async function ask(
  path: string,
  method: string,
  prefer: string,
  body = '{"project_id":"acme/support-bot"}',
): Promise<{ status: number; retryAfter: string | null; body: unknown }> {
  if (!prism) throw new Error('Prism is not running');
  const res = await fetch(`${prism.baseUrl}${path}`, {
    method,
    headers: {
      Authorization: `Basic ${Buffer.from('api:any-key').toString('base64')}`,
      'Content-Type': 'application/json',
      Prefer: prefer,
    },
    body: method === 'GET' || method === 'DELETE' ? undefined : body,
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() };
}

test('every operation that takes credentials documents 503 DatabaseUnavailable, first, with Retry-After', () => {
  const missing = operations
    .filter((op) => op.schemes.length > 0)
    .filter((op) => {
      const answer = op.responses['503']?.response as {
        headers?: Record<string, unknown>;
        content?: Record<string, { examples?: Record<string, { value?: { error_type?: string; error?: { code?: string } } }> }>;
      };
      const first = Object.values(answer?.content?.['application/json']?.examples ?? {})[0]?.value;
      // The router's OpenAI wire carries the catalogue's error type as `error.code`.
      const errorType = op.errorShape === 'openai' ? first?.error?.code : first?.error_type;
      return errorType !== 'DatabaseUnavailable' || !answer?.headers?.['Retry-After'];
    })
    .map((op) => op.operationId);
  expect(missing).toEqual([]);
});

test('the mock answers Prefer: code=503 and example=deadline as the server would', async () => {
  const unavailable = await ask('/objs/query', 'POST', 'code=503');
  expect(unavailable.status).toBe(503);
  expect(unavailable.retryAfter).not.toBeNull();
  expect(unavailable.body).toMatchObject({ error_type: 'DatabaseUnavailable', reason: expect.stringContaining('unavailable') as string });
  const deadline = await ask('/objs/query', 'POST', 'code=503, example=deadline');
  expect(deadline.body).toMatchObject({ error_type: 'DeadlineExceeded' });
  for (const answer of [unavailable, deadline]) expect(validator.schemaProblems('ErrorReason', answer.body)).toEqual([]);
});

test('the mock answers Prefer: code=507 on a write', async () => {
  const full = await ask('/obj/create', 'POST', 'code=507', '{"obj":{"project_id":"acme/support-bot","object_id":"plan","val":1}}');
  expect(full.status).toBe(507);
  expect(full.body).toMatchObject({ error_type: 'InsufficientStorage' });
  expect(validator.schemaProblems('ErrorReason', full.body)).toEqual([]);
});
