// The checker must catch answers that break the spec, or the suite proves nothing.
import { describe, expect, test } from 'vitest';
import { createConformanceChecker } from './conformance.ts';
import type { Exchange } from './exchange-recorder.ts';
import { loadSpec, specOperations } from '@weft/types/spec';
import { createSpecValidator } from './spec-validator.ts';

const doc = loadSpec();
const checker = createConformanceChecker(specOperations(doc), createSpecValidator(doc));

const exchange = (method: string, path: string, status: number, body: unknown, headers: Record<string, string> = {}): Exchange => ({
  method,
  url: new URL(`http://weft.test${path}`),
  status,
  headers: new Headers(body === undefined ? headers : { 'Content-Type': 'application/json', ...headers }),
  text: body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body),
});

const obj = {
  project_id: 'acme/support-bot',
  object_id: 'support-prompt',
  created_at: '2025-06-03T09:40:02.118Z',
  digest: 'OFgg8Alv1Vj0CRMZ5Yp0LOv4d9w7rKGAmBiJ8cQOyoQ',
  version_index: 0,
  is_latest: 1,
  kind: 'object',
  base_object_class: '',
  val: { system: 'Be brief.' },
};

describe('accepts', () => {
  test('a 200 whose body matches the schema, naming the operation', () => {
    const result = checker.check(exchange('POST', '/obj/read', 200, { obj }));
    expect(result.problems).toEqual([]);
    expect(result.operation?.operationId).toBe('objRead');
  });

  test('a documented error with its documented body', () => {
    const body = { detail: [{ loc: ['body', 'digest'], msg: "must have required property 'digest'", type: 'required' }] };
    expect(checker.check(exchange('POST', '/obj/read', 422, body)).problems).toEqual([]);
  });

  test('a JSON Lines answer of JSON lines', () => {
    const ok = {
      ...exchange('POST', '/annotation_queues/query', 200, undefined),
      headers: new Headers({ 'Content-Type': 'application/jsonl' }),
      text: '{"a":1}\n{"b":2}\n',
    };
    expect(checker.check(ok).problems).toEqual([]);
  });
});

describe('reports', () => {
  test('a body that breaks the schema (missing field, wrong type, bad format)', () => {
    const { digest: _, ...noDigest } = obj;
    expect(checker.check(exchange('POST', '/obj/read', 200, { obj: noDigest })).problems.join('\n')).toMatch(
      /must have required property 'digest'/,
    );
    expect(checker.check(exchange('POST', '/obj/read', 200, { obj: { ...obj, is_latest: 2 } })).problems.join('\n')).toMatch(
      /\/obj\/is_latest/,
    );
    expect(checker.check(exchange('POST', '/obj/read', 200, { obj: { ...obj, created_at: 'yesterday' } })).problems.join('\n')).toMatch(
      /date-time/,
    );
  });

  test('an undocumented status', () => {
    expect(checker.check(exchange('POST', '/obj/read', 500, { reason: 'boom' })).problems.join('\n')).toMatch(/status not documented/);
  });

  test('a request to no operation of the spec', () => {
    expect(checker.check(exchange('POST', '/obj/reed', 200, {})).problems.join('\n')).toMatch(/no operation/);
  });

  test('a media type the spec does not list', () => {
    const text = { ...exchange('POST', '/obj/read', 200, undefined), headers: new Headers({ 'Content-Type': 'text/plain' }), text: 'ok' };
    expect(checker.check(text).problems.join('\n')).toMatch(/Content-Type text\/plain/);
  });

  test('a body that is not JSON, and a JSON Lines line that is not JSON', () => {
    expect(checker.check(exchange('POST', '/obj/read', 200, '{"obj":')).problems.join('\n')).toMatch(/not JSON/);
    const bad = {
      ...exchange('POST', '/annotation_queues/query', 200, undefined),
      headers: new Headers({ 'Content-Type': 'application/jsonl' }),
      text: '{"a":1}\n{oops\n',
    };
    expect(checker.check(bad).problems.join('\n')).toMatch(/line 2/);
  });

  test('a 401 without WWW-Authenticate', () => {
    const body = { reason: 'Missing credentials', error_type: 'Unauthorized' };
    expect(checker.check(exchange('POST', '/obj/read', 401, body)).problems.join('\n')).toMatch(/WWW-Authenticate/);
    expect(checker.check(exchange('POST', '/obj/read', 401, body, { 'WWW-Authenticate': 'Basic realm="weft"' })).problems).toEqual([]);
  });

  test('a validation error whose loc is not a list of strings', () => {
    const body = { detail: [{ loc: 'body.digest', msg: 'required', type: 'required' }] };
    expect(checker.check(exchange('POST', '/obj/read', 422, body)).problems.join('\n')).toMatch(/loc/);
  });

  test('a body where the spec documents none (304)', () => {
    expect(checker.check(exchange('GET', '/inference/router/gateway/models', 304, undefined)).problems).toEqual([]);
    expect(checker.check(exchange('GET', '/inference/router/gateway/models', 304, { data: [] })).problems.join('\n')).toMatch(
      /documents no body/,
    );
  });
});

describe("the router's OpenAI wire", () => {
  const CHAT = '/inference/router/gateway/chat/completions';
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id: 'c1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const sse = (...events: unknown[]) => ({
    ...exchange('POST', CHAT, 200, undefined),
    headers: new Headers({ 'Content-Type': 'text/event-stream; charset=utf-8' }),
    text: events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join(''),
  });

  test('accepts a stream of chunks ending with [DONE], or with one error event', () => {
    expect(checker.check(sse(chunk({ role: 'assistant', content: 'Hi' }), chunk({}, 'stop'), '[DONE]')).problems).toEqual([]);
    const failed = sse(chunk({ content: 'Hi' }), { error: { message: 'cut', type: 'upstream_error', param: null, code: 'upstream_cut' } });
    expect(failed.text).not.toContain('[DONE]');
    expect(checker.check(failed).problems).toEqual([]);
  });

  test("reports a chunk that breaks its schema, an error event in the seed's shape, and a stream cut without an end", () => {
    expect(checker.check(sse({ ...chunk({}), choices: 'none' }, '[DONE]')).problems.join('\n')).toMatch(/event 1 \/choices/);
    expect(checker.check(sse(chunk({}), { error: { reason: 'cut' } })).problems.join('\n')).toMatch(/event 2 \/error/);
    expect(checker.check(sse(chunk({}))).problems.join('\n')).toMatch(/does not end with \[DONE\]/);
    expect(checker.check(sse('[DONE]', chunk({}))).problems.join('\n')).toMatch(/\[DONE\] before the end/);
  });

  test("expects OpenAI's error shape, and no 422, on operations that say x-weft-errors: openai", () => {
    const openai = {
      error: { message: 'messages: must NOT have fewer than 1 items', type: 'invalid_request_error', param: 'messages', code: null },
    };
    expect(checker.check(exchange('POST', CHAT, 400, openai)).problems).toEqual([]);
    const seed = { detail: [{ loc: ['body', 'messages'], msg: 'must NOT have fewer than 1 items', type: 'minItems' }] };
    expect(checker.check(exchange('POST', CHAT, 400, seed)).problems.join('\n')).toMatch(/must have required property 'error'/);
    expect(checker.check(exchange('POST', CHAT, 422, seed)).problems.join('\n')).toMatch(/status not documented/);
  });
});

test('a base URL with a path prefix is stripped before matching', () => {
  const prefixed = createConformanceChecker(specOperations(doc), createSpecValidator(doc), '/api/');
  const result = prefixed.check({ ...exchange('POST', '/api/obj/read', 200, { obj }) });
  expect(result.operation?.operationId).toBe('objRead');
  expect(result.problems).toEqual([]);
});
