import { describe, expect, test } from 'vitest';
import { loadSpec } from './spec-document.ts';
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
    expect(byId('annotationQueueRead').parameters.map((p) => `${p.in}:${p.name}`).sort()).toEqual(['path:queue_id', 'query:project_id']);
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
