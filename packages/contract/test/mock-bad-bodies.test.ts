// The mock answers a JSON body that does not parse at once and as the server does (422
// `json_invalid`), where Prism alone never answered it, and still answers a well-formed body
// (plain or compressed, as the spec takes it) with the spec's example. Prism as the suite starts it.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { deref, type MediaTypeObject, type ParameterObject } from '@weft/types/spec';
import { createSpecValidator, loadSpec, SPEC_FILE, specOperations, type SpecOperation } from '../src/index.ts';
import { startPrism, type RunningPrism } from './start-prism.ts';

/** Every answer must come within this; a mock that hangs leaves a frontend hanging too. */
const ANSWER_WITHIN_MS = 1_000;

// One operation per way the server reads a JSON body (json, lossless, stream), Basic and Bearer
// credentials, and a path parameter.
const OPERATION_IDS = ['objsQuery', 'objCreate', 'modelLog', 'annotationQueueUpdate'];

/** Bodies that are not JSON, each sent as `application/json`. */
const NOT_JSON: Array<{ name: string; body: Buffer; encoding?: string }> = [
  { name: 'truncated JSON', body: Buffer.from('{"a":') },
  { name: 'text that is not JSON at all', body: Buffer.from('hello there') },
  { name: 'blank text', body: Buffer.from('  \n') },
  { name: 'invalid UTF-8', body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) },
  { name: 'gzip-compressed truncated JSON', body: gzipSync('{"a":'), encoding: 'gzip' },
];

const doc = loadSpec();
const validator = createSpecValidator(doc);
const operations = new Map(specOperations(doc).map((op) => [op.operationId, op]));

let prism: RunningPrism | undefined;

beforeAll(async () => {
  prism = await startPrism(SPEC_FILE);
  // Prism compiles an operation's validators on its first request: one request each first, so
  // the bound below measures answering, not compiling, on a busy machine.
  for (const operationId of OPERATION_IDS) {
    const op = operations.get(operationId);
    if (op) await send(op, exampleBody(op), {}, 30_000);
  }
});

afterAll(async () => {
  await prism?.stop();
});

interface Answer {
  status: number;
  body: unknown;
}

/** POSTs (or PUTs) `body` as JSON with the operation's credentials; fails when no answer comes in time. */
async function send(op: SpecOperation, body: Buffer, headers: Record<string, string> = {}, withinMs = ANSWER_WITHIN_MS): Promise<Answer> {
  if (!prism) throw new Error('Prism is not running');
  const auth = op.schemes[0] === 'bearer' ? 'Bearer any-key' : `Basic ${Buffer.from('api:any-key').toString('base64')}`;
  let response: Response;
  try {
    response = await fetch(`${prism.baseUrl}${concretePath(op)}`, {
      method: op.method.toUpperCase(),
      headers: { Authorization: auth, 'Content-Type': 'application/json', ...headers },
      body: new Uint8Array(body),
      signal: AbortSignal.timeout(withinMs),
    });
  } catch (err) {
    if (err instanceof Error && err.name === 'TimeoutError') expect.fail(`no answer within ${withinMs} ms`);
    throw err;
  }
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

/** The path with each parameter filled with its example from the spec. */
function concretePath(op: SpecOperation): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const parameter: (ParameterObject & { example?: string }) | undefined = op.parameters.find((p) => p.in === 'path' && p.name === name);
    if (parameter?.example === undefined) throw new Error(`${op.operationId}: path parameter ${name} has no example`);
    return encodeURIComponent(parameter.example);
  });
}

type WithExamples = MediaTypeObject & { examples?: Record<string, { value: unknown }> };

/** The first example of a media type, as Prism picks it. */
function firstExample(media: WithExamples | undefined, what: string): unknown {
  const examples = Object.values(media?.examples ?? {});
  if (examples.length === 0) throw new Error(`${what} has no example`);
  return examples[0]!.value;
}

/** The operation's first request example, as JSON bytes. */
function exampleBody(op: SpecOperation): Buffer {
  const operation = doc.paths[op.path]?.[op.method];
  const requestBody = operation?.requestBody && deref(doc, operation.requestBody);
  return Buffer.from(JSON.stringify(firstExample(requestBody?.content['application/json'], `the request body of ${op.operationId}`)));
}

const expectJsonInvalid = (answer: Answer) => {
  expect(answer.status).toBe(422);
  expect(validator.schemaProblems('ValidationError', answer.body)).toEqual([]);
  expect(answer.body).toEqual({
    detail: [{ loc: ['body'], msg: expect.stringMatching(/^JSON decode error: /) as unknown, type: 'json_invalid' }],
  });
};

for (const operationId of OPERATION_IDS) {
  const op = operations.get(operationId);
  describe(`${operationId} on the mock`, () => {
    test('is in the spec', () => expect(op, `${operationId} is no operation of the spec`).toBeDefined());
    if (!op) return;
    const answerExample = () =>
      firstExample(op.responses['200']?.response.content?.['application/json'], `the 200 answer of ${operationId}`);

    for (const bad of NOT_JSON) {
      test(`answers ${bad.name} with 422 json_invalid`, async () => {
        expectJsonInvalid(await send(op, bad.body, bad.encoding ? { 'Content-Encoding': bad.encoding } : {}));
      });
    }

    test('answers an empty body with its documented 422', async () => {
      const answer = await send(op, Buffer.alloc(0));
      expect(answer.status).toBe(422);
      expect(validator.schemaProblems('ValidationError', answer.body)).toEqual([]);
    });

    // As the server, 400; the body is Prism's own error (as for a body past its size limit).
    test('answers a corrupt gzip body with 400', async () => {
      const corrupt = Buffer.concat([gzipSync(exampleBody(op)).subarray(0, 12), Buffer.from('not gzip at all')]);
      expect((await send(op, corrupt, { 'Content-Encoding': 'gzip' })).status).toBe(400);
    });

    test('still answers its request example with its answer example, plain or gzip-compressed', async () => {
      expect(await send(op, exampleBody(op))).toEqual({ status: 200, body: answerExample() });
      expect(await send(op, gzipSync(exampleBody(op)), { 'Content-Encoding': 'gzip' })).toEqual({ status: 200, body: answerExample() });
    });
  });
}
