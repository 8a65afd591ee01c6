// What the router's call records look like after the process dies mid-flight (README: "When the
// process dies"), on the built server killed with SIGKILL and started again on the same database:
// a stream in flight is a started call with no end, usage or cost; answered requests whose records
// were written are there once each, with their usage counted once; nothing else appears.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeUpstream, textChunks, usageOf, completion, type FakeUpstream } from '@weft/router/testing';
import { createPgTestDatabase, describeIfPostgres } from '@weft/store/testing';
import { describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from './kit/server-process.ts';
import { waitFor } from './kit/wait-for.ts';

const PROJECT = 'acme/router-crash';
const ANSWERED = 5;

const routerFile = (dir: string, upstream: FakeUpstream): string => {
  const file = join(dir, 'router.yaml');
  writeFileSync(
    file,
    [
      'providers:',
      '  fake:',
      `    base_url: ${upstream.base_url}`,
      'models:',
      '  - id: chat',
      '    name: Chat',
      '    context_length: 8192',
      '    endpoints:',
      '      - provider: fake',
      '        model: upstream-chat',
      "        pricing: { prompt: '0.000001', completion: '0.000002' }",
      '',
    ].join('\n'),
  );
  return file;
};

const chat = (server: ServerProcess, stream: boolean) =>
  fetch(`${server.url}/inference/router/gateway/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.aliceKey}`, 'content-type': 'application/json', 'openai-project': PROJECT },
    body: JSON.stringify({
      model: 'chat',
      messages: [{ role: 'user', content: 'Say hello' }],
      ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
    }),
  });

interface StoredCall {
  id: string;
  ended_at?: string | null;
  summary?: {
    usage?: Record<string, { requests?: number; total_tokens?: number }>;
    gateway?: { cost_usd?: string };
    weave?: { status?: string };
  };
}

const readCall = async (server: ServerProcess, id: string): Promise<StoredCall | undefined> => {
  const read = await server.call('/call/read', { project_id: PROJECT, id });
  return read.kind === 'answer' && read.status === 200 ? (JSON.parse(read.text) as { call: StoredCall }).call : undefined;
};

function crashSuite(databaseUrl: () => Promise<{ url: string; drop(): Promise<void> }>) {
  it('a SIGKILL mid-stream leaves a started call; written records stay once each', async () => {
    const upstream = await startFakeUpstream();
    const dir = mkdtempSync(join(tmpdir(), 'weft-router-crash-'));
    const database = await databaseUrl();
    const env = { DATABASE_URL: database.url, ROUTER_CONFIG: routerFile(dir, upstream) };
    let server = await startServerProcess({ env });
    try {
      upstream.setDefault({ kind: 'json', body: completion('Hello', { usage: usageOf(10, 2) }) });
      const answered: string[] = [];
      for (let i = 0; i < ANSWERED; i++) {
        const res = await chat(server, false);
        expect(res.status).toBe(200);
        await res.json();
        answered.push(res.headers.get('x-weft-call-id') ?? '');
      }
      // Records are written after the answers; these are the ones a crash no longer loses.
      for (const id of answered)
        await waitFor(async () => (await readCall(server, id))?.ended_at ?? undefined, { timeoutMs: 10_000, what: `call ${id}` });

      upstream.script({ kind: 'stream', items: [...textChunks(['Hel']), { hold: true }], usage: usageOf(10, 2) });
      const streaming = await chat(server, true);
      expect(streaming.status).toBe(200);
      const streamId = streaming.headers.get('x-weft-call-id') ?? '';
      await upstream.holding();
      await waitFor(async () => await readCall(server, streamId), { timeoutMs: 10_000, what: "the stream's start" });

      process.kill(server.pid, 'SIGKILL');
      expect(await server.exited).toMatchObject({ signal: 'SIGKILL' });
      await streaming.body?.cancel().catch(() => undefined);
      server = await startServerProcess({ env });

      const running = await readCall(server, streamId);
      // Shown as running: no end (the answer leaves out an absent ended_at).
      expect(running).toMatchObject({ id: streamId, summary: { weave: { status: 'running' } } });
      expect(running?.ended_at ?? null).toBeNull();
      expect(running?.summary?.gateway?.cost_usd).toBeUndefined();
      expect(Object.values(running?.summary?.usage ?? {})).toEqual([]);

      for (const id of answered) {
        const call = await readCall(server, id);
        expect(call?.summary?.usage?.chat).toMatchObject({ requests: 1, total_tokens: 12 });
        expect(call?.summary?.gateway?.cost_usd).toBe('0.000014');
      }
      const stats = await server.call('/calls/query_stats', { project_id: PROJECT });
      expect(stats.kind === 'answer' && (JSON.parse(stats.text) as { count: number }).count).toBe(ANSWERED + 1);
    } finally {
      await server.stop();
      upstream.release();
      await upstream.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
}

describe('router records across a crash [sqlite]', () =>
  crashSuite(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-router-crash-db-'));
    return { url: `sqlite:${join(dir, 'weft.sqlite')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }));

describeIfPostgres('router records across a crash [postgres]', () => crashSuite(createPgTestDatabase));
