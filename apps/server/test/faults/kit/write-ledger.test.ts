// The load generator and its verification, on both databases: on a healthy server every write
// is acknowledged and reads back; behind a front that fails each write's first attempt in one way
// (answer lost after the write, 503 with Retry-After, 507, connection cut, no answer) the writes
// are retried and still stored once each, as sent; verify() catches what it must catch.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { expect, it } from 'vitest';
import { describeEachDatabase, type TestServer } from '../../test-server.ts';
import { answerJson, apiCall } from './api-call.ts';
import { waitFor } from './wait-for.ts';
import { WriteLedger } from './write-ledger.ts';

type Failure = 'answer-lost' | '503' | '507' | 'cut' | 'no-answer';
const FAILURES: Failure[] = ['answer-lost', '503', '507', 'cut', 'no-answer'];

/**
 * In front of the real server: the first attempt of each distinct request fails in the next way
 * of FAILURES; a retry of it (the same body) is forwarded.
 */
function flakyFront(upstream: TestServer): Promise<{ url: string; injected: Map<string, Failure>; close(): Promise<void> }> {
  const injected = new Map<string, Failure>();
  const seen = new Set<string>();
  const forward = async (req: IncomingMessage, body: string) => {
    const res = await fetch(upstream.url + req.url, {
      method: req.method,
      headers: { authorization: req.headers.authorization!, 'content-type': 'application/json' },
      body,
    });
    return { status: res.status, text: await res.text() };
  };
  const handle = async (req: IncomingMessage, res: ServerResponse, body: string) => {
    const retry = seen.has(body);
    seen.add(body);
    if (retry) {
      const { status, text } = await forward(req, body);
      return void res.writeHead(status, { 'content-type': 'application/json' }).end(text);
    }
    const failure = FAILURES[injected.size % FAILURES.length]!;
    injected.set((JSON.parse(body) as { id?: string }).id ?? body, failure);
    if (failure === 'answer-lost') {
      await forward(req, body); // written, and the answer never reaches the client
      req.socket.destroy();
    } else if (failure === 'cut') req.socket.destroy();
    else if (failure === '503') res.writeHead(503, { 'retry-after': '1' }).end('{"reason":"injected","error_type":"ServiceUnavailable"}');
    else if (failure === '507') res.writeHead(507).end('{"reason":"injected","error_type":"InsufficientStorage"}');
    // 'no-answer': the client's deadline ends it.
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => void handle(req, res, body).catch(() => req.socket.destroy()));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
        injected,
        close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))),
      }),
    ),
  );
}

describeEachDatabase('write ledger', (getServer) => {
  it('acknowledges every write of every kind, all 200, and verify() finds each as the server keeps it', async () => {
    const ledger = new WriteLedger({ target: getServer(), writers: 4 });
    await ledger.run(4);
    expect(ledger.labels()).toEqual(new Set(['200']));
    expect(Object.keys(ledger.statusCounts()).sort()).toEqual(['callEnd', 'callStart', 'feedback', 'obj', 'table']);
    expect(ledger.records.every((r) => r.outcome === 'acknowledged' && r.attempts === 1)).toBe(true);
    expect(ledger.acknowledged()).toHaveLength(16 + 4); // 16 writes, 4 of them calls with an end
    const report = await ledger.verify();
    expect(report.problems).toEqual([]);
    expect(report.checked).toEqual({ obj: 4, callStart: 4, callEnd: 4, table: 4, feedback: 4 });
  });

  it('verify() reports a changed value, a lost write, a duplicate version and a stranger', async () => {
    const server = getServer();
    const ledger = new WriteLedger({ target: server, writers: 1, families: ['obj', 'feedback'] });
    await ledger.run(2);
    const [obj, feedback] = [ledger.acknowledged('obj')[0]!, ledger.acknowledged('feedback')[0]!];
    const post = async (path: string, body: unknown) => answerJson(await apiCall(server.url, path, body, { key: server.aliceKey }), path);
    // A second version of the object (what a non-idempotent retry would leave).
    await post('/obj/create', { obj: { project_id: ledger.projectId, object_id: obj.id, val: { other: 1 } } });
    // A row nobody in the ledger sent.
    await post('/feedback/create', {
      project_id: ledger.projectId,
      weave_ref: `weave:///${ledger.projectId}/call/x`,
      feedback_type: 'x',
      payload: {},
    });
    // What the ledger believes it sent, changed: one value inside.
    feedback.body.payload = { ...(feedback.body.payload as Record<string, unknown>), reason: 'changed' };
    // An acknowledgement for a write that never happened.
    ledger.records.push({ ...obj, id: `${obj.id}-never` });

    const { problems } = await ledger.verify();
    expect(problems).toHaveLength(4);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^obj ${obj.id}: 2 versions`)),
        expect.stringMatching(/^feedback [^:]+: stored but never sent$/),
        expect.stringMatching(new RegExp(`^feedback ${feedback.id}: payload .*"kept ✓".*, expected .*"changed"`)),
        expect.stringMatching(new RegExp(`^obj ${obj.id}-never: acknowledged .* but not found$`)),
      ]),
    );
  });

  it('retries lost answers, 503 (after its Retry-After), 507, cuts and timeouts; each write is stored once, as sent', async () => {
    const front = await flakyFront(getServer());
    try {
      const ledger = new WriteLedger({
        target: { url: front.url, aliceKey: getServer().aliceKey, databaseUrl: getServer().databaseUrl },
        writers: 4,
        requestTimeoutMs: 2000,
      });
      await ledger.run(5);
      expect(new Set(front.injected.values())).toEqual(new Set(FAILURES));
      expect(ledger.records.every((r) => r.outcome === 'acknowledged')).toBe(true);
      const firsts = ledger.attempts.filter((a) => a.attempt === 1);
      expect(new Set(firsts.map((a) => a.label))).toEqual(new Set(['503', '507', 'timeout', 'UND_ERR_SOCKET']));
      for (const first of firsts.filter((a) => a.label === '503')) {
        const second = ledger.attempts.find((a) => a.id === first.id && a.kind === first.kind && a.attempt === 2)!;
        expect(second.sentAt - first.sentAt - first.ms).toBeGreaterThanOrEqual(990);
      }
      expect((await ledger.verify(getServer())).problems).toEqual([]);
    } finally {
      await front.close();
    }
  });

  it('gives up after maxAttempts on answers it may retry, and never retries a refusal', async () => {
    const ledger = new WriteLedger({
      target: { url: getServer().url, aliceKey: getServer().bobKey },
      writers: 1,
      families: ['obj'],
      maxAttempts: 3,
    });
    await ledger.run(1); // bob may not write to acme: 403, not retried
    expect(ledger.records).toMatchObject([{ outcome: 'refused', attempts: 1, last: '403' }]);

    const always503 = createServer((_req, res) => res.writeHead(503).end('{}'));
    await new Promise<void>((resolve) => always503.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(always503.address() as { port: number }).port}`;
      const busy = new WriteLedger({ target: { url, aliceKey: getServer().aliceKey }, writers: 1, families: ['obj'], maxAttempts: 3 });
      await busy.run(1);
      expect(busy.records).toMatchObject([{ outcome: 'gave-up', attempts: 3, last: '503' }]);
      expect(busy.statusCounts()).toEqual({ obj: { '503': 3 } });
    } finally {
      await new Promise<void>((resolve) => always503.close(() => resolve()));
    }
  });

  it('start() runs until stop(), which lets the write in progress finish', async () => {
    const ledger = new WriteLedger({ target: getServer(), writers: 2 });
    ledger.start();
    await waitFor(() => ledger.acknowledged().length >= 10, { timeoutMs: 30_000, what: '10 acknowledged writes' });
    await ledger.stop();
    // Nothing still in flight: every attempt made belongs to a write with its record.
    const recorded = new Set(ledger.records.map((r) => `${r.kind} ${r.id}`));
    expect(ledger.attempts.filter((a) => !recorded.has(`${a.kind} ${a.id}`))).toEqual([]);
    const settled = ledger.attempts.length;
    await new Promise((resolve) => setImmediate(resolve));
    expect(ledger.attempts).toHaveLength(settled);
    expect((await ledger.verify()).problems).toEqual([]);
  });
});
