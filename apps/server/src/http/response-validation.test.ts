// Response validation (VALIDATE_RESPONSES, on in every test server) checks answers against the
// spec's schemas, refs into #/components included: an answer that breaks them never leaves as a
// 200. The validator is express-openapi-validator with Weft's options, as app.ts builds it.
import type { AddressInfo } from 'node:net';
import express from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { deref, type OpenApiDocument, type ResponseObject } from '@weft/types/spec';
import { spec } from './spec.ts';
import { validatorOptions } from './validator-options.ts';

// The spec's own example of the answer: valid by construction (spec-examples.test.ts checks them).
const doc = spec as unknown as OpenApiDocument;
const read200 = deref<ResponseObject>(doc, doc.paths['/obj/read']!.post!.responses['200']!);
const media = read200.content!['application/json'] as { examples: Record<string, { value: { obj: Record<string, unknown> } }> };
const { obj } = media.examples['prompt']!.value;

let answer: unknown;
let url = '';
let close = () => undefined as unknown;

beforeAll(async () => {
  const app = express();
  app.use(express.json());
  app.use(OpenApiValidator.middleware(validatorOptions(false, true)));
  app.post('/obj/read', (_req, res) => void res.json(answer));
  app.use((err: { status?: number; message: string }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(err.status ?? 500).json({ message: err.message });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/obj/read`;
  close = () => server.close();
});
afterAll(() => close());

const read = () =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ project_id: 'acme/support-bot', object_id: 'support-prompt', digest: 'latest' }),
  });

it('lets an answer that matches the schema through', async () => {
  answer = { obj };
  const res = await read();
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ obj });
});

it('refuses answers that break a schema reached through refs (ObjReadRes → ObjSchema → ProjectId, Datetime)', async () => {
  for (const bad of [
    {},
    { obj: { ...obj, project_id: 7 } },
    { obj: { ...obj, created_at: 'yesterday' } },
    { obj: { ...obj, version_index: -1 } },
  ]) {
    answer = bad;
    const res = await read();
    expect(res.status, JSON.stringify(bad)).toBe(500);
    expect(((await res.json()) as { message: string }).message).toMatch(/\/response/);
  }
});
