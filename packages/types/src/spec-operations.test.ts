import { describe, expect, test } from 'vitest';
import { loadSpec } from './spec-document.ts';
import { createOperationMatcher } from './operation-matcher.ts';
import type { OpenApiDocument } from './spec-document.ts';
import { documentedResponse, matchOperation, specOperations } from './spec-operations.ts';

const operations = specOperations(loadSpec());
const byId = (id: string) => operations.find((op) => op.operationId === id)!;

describe('specOperations', () => {
  test('lists every method of every path once, each with a unique operationId', () => {
    const doc = loadSpec();
    const expected = Object.values(doc.paths).flatMap((item) => Object.keys(item).filter((k) => k !== 'parameters' && !k.startsWith('x-')));
    expect(operations).toHaveLength(expected.length);
    expect(new Set(operations.map((op) => op.operationId)).size).toBe(operations.length);
  });

  test('reads the security scheme of each operation', () => {
    expect(byId('health').schemes).toEqual([]);
    expect(byId('routerModelsList').schemes).toEqual([]);
    expect(byId('objRead').schemes).toEqual(['basic']);
    expect(byId('modelLog').schemes).toEqual(['bearer']);
  });

  test('follows response $refs and remembers where the schema lives', () => {
    const notFound = byId('objRead').responses['404']!;
    expect(notFound.pointer).toBe('/components/responses/NotFound');
    expect(notFound.response.content?.['application/json']).toBeDefined();
    expect(byId('objRead').responses['200']!.pointer).toBe('/paths/~1obj~1read/post/responses/200');
  });

  test('includes path-level parameters and knows which operations take input', () => {
    expect(
      byId('annotationQueueRead')
        .parameters.map((p) => `${p.in}:${p.name}`)
        .sort(),
    ).toEqual(['path:queue_id', 'query:project_id']);
    expect(byId('objsQuery').takesInput).toBe(true);
    expect(byId('serverInfo').takesInput).toBe(false);
    expect(byId('routerModelsList').takesInput).toBe(true); // If-None-Match
  });
});

describe('matchOperation', () => {
  test('matches literal paths and templates, literal segments first', () => {
    expect(matchOperation(operations, 'POST', '/annotation_queues/query')?.operationId).toBe('annotationQueuesQuery');
    expect(matchOperation(operations, 'GET', '/annotation_queues/q-1')?.operationId).toBe('annotationQueueRead');
    expect(matchOperation(operations, 'DELETE', '/annotation_queues/q-1')?.operationId).toBe('annotationQueueDelete');
    expect(matchOperation(operations, 'POST', '/v1/preview/models/m-1/log')?.operationId).toBe('modelLog');
  });

  test('finds nothing for an unknown path, method or extra segment', () => {
    expect(matchOperation(operations, 'POST', '/obj/reed')).toBeUndefined();
    expect(matchOperation(operations, 'GET', '/obj/read')).toBeUndefined();
    expect(matchOperation(operations, 'GET', '/annotation_queues/q-1/extra')).toBeUndefined();
  });
});

test('documentedResponse falls back from the exact code to a range to default', () => {
  const op = { ...byId('objRead'), responses: { '200': byId('objRead').responses['200']!, '4XX': byId('objRead').responses['404']! } };
  expect(documentedResponse(op, 200)).toBe(op.responses['200']);
  expect(documentedResponse(op, 418)).toBe(op.responses['4XX']);
  expect(documentedResponse(op, 500)).toBeUndefined();
});

describe('one reader for every consumer', () => {
  // Every operation declares its access; the tests of other rules take `read` unless they say.
  const withAccess = (paths: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(paths).map(([path, item]) => [
        path,
        Object.fromEntries(
          Object.entries(item as Record<string, Record<string, unknown>>).map(([method, op]) => [
            method,
            { 'x-weft-access': 'read', ...op },
          ]),
        ),
      ]),
    );
  const minimal = (paths: Record<string, unknown>, security?: unknown): OpenApiDocument =>
    ({
      openapi: '3.1.0',
      ...(security ? { security } : {}),
      paths: withAccess(paths),
      components: {
        schemas: { Line: {} },
        securitySchemes: { basicAuth: { type: 'http', scheme: 'basic' }, bearerAuth: { type: 'http', scheme: 'bearer' } },
      },
    }) as unknown as OpenApiDocument;
  const body = { content: { 'application/json': { schema: {} } } };

  test('reads every HTTP method, PATCH included', () => {
    const ops = specOperations(
      minimal({ '/a': { patch: { operationId: 'aPatch', 'x-weft-body': 'json', requestBody: body, responses: {} } } }),
    );
    expect(ops.map((op) => [op.method, op.operationId])).toEqual([['patch', 'aPatch']]);
  });

  test('falls back to the global security, and `[]` on an operation means anonymous', () => {
    const ops = specOperations(
      minimal({ '/a': { get: { operationId: 'a', responses: {} } }, '/b': { get: { operationId: 'b', security: [], responses: {} } } }, [
        { bearerAuth: [] },
      ]),
    );
    expect(ops.map((op) => [op.operationId, op.schemes])).toEqual([
      ['a', ['bearer']],
      ['b', []],
    ]);
  });

  test('every operation with a body declares its body mode, and none without', () => {
    expect(byId('objCreate').bodyMode).toBe('lossless');
    expect(byId('tableCreate').bodyMode).toBe('lossless');
    expect(byId('modelLog').bodyMode).toBe('stream');
    expect(byId('fileCreate').bodyMode).toBe('multipart');
    expect(byId('objRead').bodyMode).toBe('json');
    expect(byId('health').bodyMode).toBe('none');
    expect(() => specOperations(minimal({ '/a': { post: { operationId: 'a', requestBody: body, responses: {} } } }))).toThrow(
      /must declare x-weft-body/,
    );
    expect(() =>
      specOperations(minimal({ '/a': { post: { operationId: 'a', 'x-weft-body': 'yaml', requestBody: body, responses: {} } } })),
    ).toThrow(/got yaml/);
    expect(() => specOperations(minimal({ '/a': { get: { operationId: 'a', 'x-weft-body': 'json', responses: {} } } }))).toThrow(
      /has no request body/,
    );
  });

  test('reads what each operation needs of a key, and refuses an operation that does not say', () => {
    expect(byId('objRead').access).toBe('read');
    expect(byId('objCreate').access).toBe('write');
    expect(() => specOperations(minimal({ '/a': { get: { operationId: 'a', 'x-weft-access': undefined, responses: {} } } }))).toThrow(
      /GET \/a must declare x-weft-access: read \| write \| admin \(got undefined\)/,
    );
    expect(() => specOperations(minimal({ '/a': { get: { operationId: 'a', 'x-weft-access': 'root', responses: {} } } }))).toThrow(
      /got root/,
    );
  });

  test("reads the shape of the errors, the seed's unless the operation says openai", () => {
    expect(byId('routerChatCompletionsCreate').errorShape).toBe('openai');
    expect(byId('routerEmbeddingsCreate').errorShape).toBe('openai');
    expect(byId('routerModelsList').errorShape).toBe('weft');
    expect(byId('objRead').errorShape).toBe('weft');
    expect(() => specOperations(minimal({ '/a': { get: { operationId: 'a', 'x-weft-errors': 'problem+json', responses: {} } } }))).toThrow(
      /x-weft-errors must be weft or openai \(got problem\+json\)/,
    );
  });

  test('knows the media type of the answer and the schema of a JSON Lines line', () => {
    expect(byId('objRead').successMediaType).toBe('application/json');
    expect(byId('fileContent').successMediaType).toBe('application/octet-stream');
    expect(byId('callsStreamQuery')).toMatchObject({ successMediaType: 'application/jsonl', lineSchema: 'CallSchema' });
    expect(byId('annotationQueuesQuery').lineSchema).toBe('AnnotationQueueSchema');
    expect(byId('routerChatCompletionsCreate')).toMatchObject({ successMediaType: 'application/json', eventSchema: 'ChatCompletionChunk' });
    expect(byId('objRead').eventSchema).toBeUndefined();
  });
});

describe('createOperationMatcher', () => {
  const matcher = createOperationMatcher(operations);
  test('answers a literal path with one lookup and a template with its decoded parameters', () => {
    expect(matcher.match('POST', '/obj/read')).toMatchObject({ kind: 'operation', operation: { operationId: 'objRead' }, params: {} });
    expect(matcher.match('PUT', '/annotation_queues/q%201')).toMatchObject({
      kind: 'operation',
      operation: { operationId: 'annotationQueueUpdate' },
      params: { queue_id: 'q 1' },
    });
  });
  test('tells a wrong method from an unknown path, naming the allowed methods', () => {
    expect(matcher.match('GET', '/obj/read')).toEqual({ kind: 'method-not-allowed', allowed: ['POST'] });
    expect(matcher.match('PATCH', '/annotation_queues/q-1')).toEqual({ kind: 'method-not-allowed', allowed: ['GET', 'PUT', 'DELETE'] });
    expect(matcher.match('POST', '/obj/reed')).toEqual({ kind: 'not-found' });
  });
  test('answers HEAD with the GET operation, as Express does', () => {
    expect(matcher.match('HEAD', '/health')).toMatchObject({ kind: 'operation', operation: { operationId: 'health' } });
  });
  test('keeps a malformed escape as sent instead of throwing', () => {
    expect(matcher.match('GET', '/annotation_queues/%E0%A4%A')).toMatchObject({ params: { queue_id: '%E0%A4%A' } });
  });
});
