import { describe, expect, test } from 'vitest';
import type { AnnotationQueueSchema, CallSchema } from '@weft/types';
import { fakeFetch, json } from '../test/fake-fetch.ts';
import { createClient } from './create-client.ts';
import { WeftApiError } from './weft-api-error.ts';

const baseUrl = 'http://weft.test';
const auth = { scheme: 'basic', apiKey: 'k' } as const;
const project_id = 'acme/support-bot';

const jsonl = (lines: unknown[]) =>
  new Response(lines.map((l) => JSON.stringify(l) + '\n').join(''), { headers: { 'Content-Type': 'application/jsonl' } });

describe('JSON Lines', () => {
  const queue = (id: string): AnnotationQueueSchema => ({
    id,
    project_id,
    name: `queue ${id}`,
    description: '',
    scorer_refs: [],
    created_at: '2025-06-03T10:02:11.006Z',
    created_by: 'alice',
    updated_at: '2025-06-03T10:02:11.006Z',
  });

  test('annotationQueuesQuery returns one queue per line', async () => {
    const server = fakeFetch(() => jsonl([queue('a'), queue('b')]));
    const client = createClient({ baseUrl, auth, fetch: server.fetch });

    const queues = await client.annotationQueuesQuery({ project_id, limit: 2 });

    expect(queues).toEqual([queue('a'), queue('b')]);
    expect(server.only().url).toBe(`${baseUrl}/annotation_queues/query`);
    expect(await server.only().json()).toEqual({ project_id, limit: 2 });
  });

  test('annotationQueuesQuery returns [] for an empty answer', async () => {
    const server = fakeFetch(() => new Response('', { headers: { 'Content-Type': 'application/jsonl' } }));
    const client = createClient({ baseUrl, auth, fetch: server.fetch });

    expect(await client.annotationQueuesQuery({ project_id })).toEqual([]);
  });

  test('callsStreamQuery returns one call per line', async () => {
    const call = {
      id: 'c',
      project_id,
      op_name: 'op',
      trace_id: 't',
      started_at: '2025-06-03T09:41:27.512Z',
      attributes: {},
      inputs: {},
    } as CallSchema;
    const server = fakeFetch(() => jsonl([call]));
    const client = createClient({ baseUrl, auth, fetch: server.fetch });

    expect(await client.callsStreamQuery({ project_id, limit: 1 })).toEqual([call]);
    expect(server.only().url).toBe(`${baseUrl}/calls/stream_query`);
  });

  test('the generic POST resolves to the text, as the spec types it (a one-line answer is not parsed as JSON)', async () => {
    const server = fakeFetch(() => jsonl([queue('a')]));
    const client = createClient({ baseUrl, auth, fetch: server.fetch });

    const text = await client.POST('/annotation_queues/query', { body: { project_id } });

    expect(text).toBe(JSON.stringify(queue('a')) + '\n');
  });

  test('an error answer rejects with WeftApiError', async () => {
    const server = fakeFetch(() => json({ reason: 'No access to entity "globex"', error_type: 'Forbidden' }, 403));
    const client = createClient({ baseUrl, auth, fetch: server.fetch });

    await expect(client.annotationQueuesQuery({ project_id: 'globex/x' })).rejects.toSatisfy(
      (error) => error instanceof WeftApiError && error.status === 403,
    );
  });
});

describe('files', () => {
  test('fileCreate sends multipart/form-data with project_id and the bytes as "blob"', async () => {
    const server = fakeFetch(() => json({ digest: 'qUiQTy8PR5uPgZdpSzAYSw0u0cHNKh7AX4XSmaGSpEc' }));
    const client = createClient({ baseUrl, auth, fetch: server.fetch });

    const created = await client.fileCreate({ project_id, file: new TextEncoder().encode('hello world\n') });

    expect(created).toEqual({ digest: 'qUiQTy8PR5uPgZdpSzAYSw0u0cHNKh7AX4XSmaGSpEc' });
    const request = server.only();
    expect(request.url).toBe(`${baseUrl}/file/create`);
    expect(request.headers.get('Content-Type')).toMatch(/^multipart\/form-data; boundary=/);
    expect(request.headers.get('Authorization')).toMatch(/^Basic /);
    const form = await request.formData();
    expect(form.get('project_id')).toBe(project_id);
    const file = form.get('file') as File;
    expect(file.name).toBe('blob');
    expect(await file.text()).toBe('hello world\n');
  });

  test('fileContent resolves to the bytes as stored', async () => {
    const bytes = new Uint8Array([0, 255, 137, 80, 78, 71]); // not valid UTF-8 on purpose
    const server = fakeFetch(() => new Response(bytes, { headers: { 'Content-Type': 'application/octet-stream' } }));
    const client = createClient({ baseUrl, auth, fetch: server.fetch });

    expect(await client.fileContent({ project_id, digest: 'd' })).toEqual(bytes);
    expect(await server.only().json()).toEqual({ project_id, digest: 'd' });
  });
});

describe('an empty JSON Lines answer', () => {
  test('is an empty list, also when sent with Content-Length: 0 (as proxies do)', async () => {
    const client = createClient({
      baseUrl: 'http://weft.test',
      fetch: async () => new Response('', { status: 200, headers: { 'Content-Type': 'application/jsonl', 'Content-Length': '0' } }),
    });
    expect(await client.annotationQueuesQuery({ project_id: 'acme/p' })).toEqual([]);
    expect(await client.callsStreamQuery({ project_id: 'acme/p' })).toEqual([]);
  });
});
