// Request ids, /ready and /metrics as an operator relies on them, on both databases: every answer
// carries X-Request-Id (adopted when valid, else a new UUIDv7) and so does every log line of the
// request; /ready says whether to send traffic; /metrics shows the counters moving.
import { EventEmitter } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { loadCatalogue } from '@weft/core';
import { createStore, migrateToLatest, openDatabase } from '@weft/store';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeIfPostgres } from '@weft/store/testing';
import { createCallRecorder } from '../src/router/record-call.ts';
import { createApp } from '../src/app.ts';
import type { Phase } from '../src/http/lifecycle.ts';
import { createAuthenticator } from '../src/auth/index.ts';
import { createMetrics } from '../src/http/metrics.ts';
import { startTestServer, type TestDatabase, type TestServer } from './test-server.ts';

const UUIDV7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The value of one sample of the exposition text (labels given in any order), or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

function observability(database: TestDatabase) {
  return () => {
    let server: TestServer;
    const lines: Array<Record<string, unknown>> = [];
    const logged = new EventEmitter();
    /** Resolves with the first log line (already written or still to come) that `match` accepts. */
    const lineWhere = (match: (line: Record<string, unknown>) => boolean) =>
      new Promise<Record<string, unknown>>((resolve) => {
        const found = lines.find(match);
        if (found) return resolve(found);
        const look = (line: Record<string, unknown>) => {
          if (!match(line)) return;
          logged.off('line', look);
          resolve(line);
        };
        logged.on('line', look);
      });
    beforeAll(async () => {
      const sink = new Writable({
        write(chunk: Buffer, _enc, done) {
          for (const text of chunk.toString().split('\n').filter(Boolean)) {
            const line = JSON.parse(text) as Record<string, unknown>;
            lines.push(line);
            logged.emit('line', line);
          }
          done();
        },
      });
      server = await startTestServer(database, {}, pino({ level: 'info' }, sink));
    });
    afterAll(async () => {
      await server?.close();
    });
    const basic = () => `Basic ${Buffer.from(`api:${server.aliceKey}`).toString('base64')}`;

    it('gives every answer a request id: a new UUIDv7, or the valid one the request sent', async () => {
      const a = await fetch(`${server.url}/server_info`, { headers: { authorization: basic() } });
      const b = await fetch(`${server.url}/server_info`, { headers: { authorization: basic() } });
      expect(a.headers.get('x-request-id')).toMatch(UUIDV7);
      expect(b.headers.get('x-request-id')).toMatch(UUIDV7);
      expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
      // Errors too: no key, no such operation, a bad body.
      for (const res of [
        await fetch(`${server.url}/server_info`),
        await fetch(`${server.url}/no/such/thing`),
        await fetch(`${server.url}/obj/read`, {
          method: 'POST',
          headers: { authorization: basic(), 'content-type': 'application/json' },
          body: '{}',
        }),
      ]) {
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.headers.get('x-request-id')).toMatch(UUIDV7);
      }
      const adopted = await fetch(`${server.url}/health`, { headers: { 'x-request-id': 'lb-7f3a.2:9_x' } });
      expect(adopted.headers.get('x-request-id')).toBe('lb-7f3a.2:9_x');
      for (const bad of ['has space', 'x'.repeat(129), 'semi;colon', '']) {
        const res = await fetch(`${server.url}/health`, { headers: { 'x-request-id': bad } });
        expect(res.headers.get('x-request-id')).toMatch(UUIDV7);
      }
    });

    it("puts the request id on the request's log line, and never the key", async () => {
      const res = await fetch(`${server.url}/server_info`, { headers: { authorization: basic(), 'x-request-id': 'trace-me-42' } });
      expect(res.status).toBe(200);
      // The request's line is written when its answer finishes, which may be after fetch resolves.
      await lineWhere((l) => (l.req as { id?: string } | undefined)?.id === 'trace-me-42');
      expect(JSON.stringify(lines)).not.toContain(server.aliceKey);
    });

    it('says it is ready: database reachable, migrations applied, not draining', async () => {
      const res = await fetch(`${server.url}/ready`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'ready', database: 'ok', migrations: 'applied', draining: false, reason: 'ready' });
    });

    it('shows the counters moving on /metrics', async () => {
      const scrape = async () => {
        const res = await fetch(`${server.url}/metrics`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
        return res.text();
      };
      const before = await scrape();
      // Which build answers: the clone's version and commit, from the sources.
      expect(before).toMatch(/^weft_build_info\{version="\d+\.\d+\.\d+",commit="[0-9a-f]{12}",node="\d+\.\d+\.\d+"\} 1$/m);
      const project_id = 'acme/metrics';
      const json = { authorization: basic(), 'content-type': 'application/json' };
      const batch = [1, 2, 3].map((i) => ({
        mode: 'start',
        req: {
          start: {
            project_id,
            id: `m-${database}-${i}`,
            trace_id: 't',
            op_name: 'op',
            started_at: new Date().toISOString(),
            attributes: {},
            inputs: {},
          },
        },
      }));
      expect(
        (await fetch(`${server.url}/call/upsert_batch`, { method: 'POST', headers: json, body: JSON.stringify({ batch }) })).status,
      ).toBe(200);
      const table = { table: { project_id, rows: [{ a: 1 }, { a: 2 }] } };
      expect((await fetch(`${server.url}/table/create`, { method: 'POST', headers: json, body: JSON.stringify(table) })).status).toBe(200);
      // Two OTLP spans, one of them refused (an empty name): one stored.
      const spans = ['00000000000000b1', '00000000000000b2'].map((spanId, i) => ({
        traceId: '0af7651916cd43dd8448eb211c80319c',
        spanId,
        name: i === 0 ? 'step' : '',
        startTimeUnixNano: '1749000000000000000',
        endTimeUnixNano: '1749000000000000001',
      }));
      const otlp = { resourceSpans: [{ scopeSpans: [{ spans }] }] };
      const exported = await fetch(`${server.url}/otel/v1/traces`, {
        method: 'POST',
        headers: { ...json, project_id: `${project_id}-${database}` },
        body: JSON.stringify(otlp),
      });
      expect(exported.status).toBe(200);
      expect((await fetch(`${server.url}/server_info`)).status).toBe(401);
      const after = await scrape();

      const delta = (name: string, labels: Record<string, string> = {}) =>
        (sample(after, name, labels) ?? 0) - (sample(before, name, labels) ?? 0);
      expect(delta('weft_http_requests_total', { operation: 'callUpsertBatch', status_class: '2xx' })).toBe(1);
      expect(delta('weft_http_requests_total', { operation: 'serverInfo', status_class: '4xx' })).toBe(1);
      expect(delta('weft_http_request_duration_seconds_count', { operation: 'tableCreate', status_class: '2xx' })).toBe(1);
      expect(delta('weft_http_request_body_bytes_total', { operation: 'tableCreate' })).toBe(JSON.stringify(table).length);
      expect(delta('weft_ingested_total', { kind: 'calls' })).toBe(3);
      expect(delta('weft_ingested_total', { kind: 'table_rows' })).toBe(2);
      expect(delta('weft_ingested_total', { kind: 'spans' })).toBe(1);
      expect(delta('weft_db_query_duration_seconds_count', { outcome: 'ok' })).toBeGreaterThan(0);
      // The scrape itself is in flight while it is answered.
      expect(sample(after, 'weft_http_requests_in_flight')).toBe(1);
      expect(sample(after, 'weft_process_resident_memory_bytes')).toBeGreaterThan(0);
      expect(sample(after, 'weft_nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
      if (database === 'postgres') expect(sample(after, 'weft_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
      else expect(sample(after, 'weft_db_pool_connections', { state: 'total' })).toBeUndefined();
      // Operation names and counts only: nothing sent is in it.
      expect(after).not.toContain('m-' + database);
    });
  };
}

describe('observability [sqlite]', observability('sqlite'));
describeIfPostgres('observability [postgres]', observability('postgres'));

// The app alone, with a lifecycle and a store the test controls: what a draining replica's /ready
// says, and the request id in the body of a bug's 500.
describe('observability: readiness while draining, request id of a 500', () => {
  let url: string;
  let close: () => Promise<void>;
  const lifecycle: { phase: Phase } = { phase: 'serving' };
  beforeAll(async () => {
    const db = await openDatabase('sqlite::memory:');
    await migrateToLatest(db);
    const catalogue = await loadCatalogue();
    const store = createStore({ db, catalogue });
    const metrics = createMetrics(db);
    const failing = { ...store, health: () => Promise.reject(new Error('a bug')) };
    const app = await createApp(
      {
        store: failing,
        auth: createAuthenticator({ users: [] }),
        catalogue,
        version: 'test',
        lifecycle,
        metrics,
        router: () => undefined,
        recorder: createCallRecorder({ store, logger: pino({ level: 'silent' }) }),
      },
      { bodyLimit: 1 << 20, logBodyLimit: 1 << 20, validateResponses: true, logger: pino({ level: 'silent' }), requestTimeoutMs: 10_000 },
    );
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = async () => {
      await new Promise((resolve) => server.close(resolve));
      await db.close();
    };
  });
  afterAll(async () => close?.());

  it('answers a 500 with the request id, the same as its header', async () => {
    const res = await fetch(`${url}/health`, { headers: { 'x-request-id': 'quote-me' } });
    expect(res.status).toBe(500);
    expect(res.headers.get('x-request-id')).toBe('quote-me');
    expect(await res.json()).toEqual({ reason: 'Internal server error', error_type: 'InternalError', request_id: 'quote-me' });
  });

  it('is not ready while draining, and says so', async () => {
    expect((await fetch(`${url}/ready`)).status).toBe(200);
    lifecycle.phase = 'draining';
    const res = await fetch(`${url}/ready`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      status: 'not_ready',
      database: 'ok',
      migrations: 'applied',
      draining: true,
      reason: 'draining: the replica is shutting down',
    });
    lifecycle.phase = 'serving';
  });
});
