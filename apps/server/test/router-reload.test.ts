// The router file in a running server (ROUTER_CONFIG): GET /models serves its models; SIGHUP and a
// change of the file reload it while requests keep being answered; a bad new file keeps the
// configuration in use and logs its problems by line; a bad file at start stops the server; a
// stream in flight during a reload finishes on the configuration it started with.
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { loadCatalogue } from '@weft/core';
import { createRouter, createRouterLimits, isRouterError, loadRouterConfig } from '@weft/router';
import { startFakeUpstream, textChunks, type FakeUpstream } from '@weft/router/testing';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRouterRuntime } from '../src/router/router-runtime.ts';
import { startTestServer, type TestServer } from './test-server.ts';

interface Line {
  msg: string;
  why?: string;
  problems?: string[];
}

function logSink() {
  const lines: Line[] = [];
  const waiters = new Set<() => void>();
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Line);
        for (const w of waiters) w();
        done();
      },
    }),
  );
  /** The first line from `from` on that matches. */
  const line = (match: (l: Line) => boolean, from = 0) =>
    new Promise<Line>((resolve) => {
      const check = () => {
        const found = lines.slice(from).find(match);
        if (found) {
          waiters.delete(check);
          resolve(found);
        }
      };
      waiters.add(check);
      check();
    });
  return { logger, lines, line };
}

const routerFile = (upstream: FakeUpstream, ids: string[]) =>
  [
    'providers:',
    '  fake:',
    `    base_url: ${upstream.base_url}`,
    'models:',
    ...ids.flatMap((id) => [
      `  - id: ${id}`,
      '    context_length: 8192',
      '    endpoints:',
      '      - provider: fake',
      '        pricing: {}',
    ]),
    '',
  ].join('\n');

describe('router file in a running server', () => {
  let upstream: FakeUpstream;
  let dir: string;
  let file: string;
  let server: TestServer;
  const sink = logSink();
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    dir = mkdtempSync(join(tmpdir(), 'weft-router-reload-'));
    file = join(dir, 'router.yaml');
    writeFileSync(file, routerFile(upstream, ['team/model-a']));
    server = await startTestServer('sqlite', { ROUTER_CONFIG: file, ROUTER_CONFIG_WATCH: '50ms' }, sink.logger);
  });
  afterAll(async () => {
    await server?.close();
    await upstream?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const modelIds = async () => {
    const res = await fetch(`${server.url}/inference/router/gateway/models`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { id: string }[] }).data.map((m) => m.id);
  };

  it('serves the file’s models, and the new ones after SIGHUP, answering every request meanwhile', async () => {
    expect(await modelIds()).toEqual(['team/model-a']);
    // Requests keep coming while the file is reloaded: none may fail.
    let stop = false;
    const statuses: number[] = [];
    const traffic = (async () => {
      while (!stop) statuses.push((await fetch(`${server.url}/inference/router/gateway/models`)).status);
    })();
    const from = sink.lines.length;
    writeFileSync(file, routerFile(upstream, ['team/model-a', 'team/model-b']));
    process.emit('SIGHUP');
    await sink.line((l) => l.msg === 'router configuration reloaded', from);
    expect(await modelIds()).toEqual(['team/model-a', 'team/model-b']);
    stop = true;
    await traffic;
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 200)).toBe(true);
  });

  it('keeps the configuration in use when the new file is bad, logging its problems by line', async () => {
    const from = sink.lines.length;
    writeFileSync(file, routerFile(upstream, ['team/model-c']).replace('pricing: {}', 'pricing: {}\n        colour: blue'));
    const refused = await sink.line((l) => l.msg.startsWith('router configuration not reloaded'), from);
    expect(refused.problems).toEqual([expect.stringMatching(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:10:9: .*colour`))]);
    expect(await modelIds()).toEqual(['team/model-a', 'team/model-b']);
  });

  it('reloads when the file changes, without a signal', async () => {
    const from = sink.lines.length;
    writeFileSync(file, routerFile(upstream, ['team/model-d']));
    const reloaded = await sink.line((l) => l.msg === 'router configuration reloaded', from);
    expect(reloaded.why).toBe('file changed');
    expect(await modelIds()).toEqual(['team/model-d']);
  });

  it('refuses to start on a bad file, naming the line', async () => {
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'providers:\n  fake:\n    base_url: 12\nmodels: []\n');
    await expect(startTestServer('sqlite', { ROUTER_CONFIG: bad })).rejects.toThrow(/bad\.yaml:3:\d+/);
  });
});

describe('a reload while a stream is in flight', () => {
  it('lets the stream finish on the configuration it started with', async () => {
    const upstream = await startFakeUpstream();
    const dir = mkdtempSync(join(tmpdir(), 'weft-router-inflight-'));
    const file = join(dir, 'router.yaml');
    writeFileSync(file, routerFile(upstream, ['team/model-a']));
    const catalogue = await loadCatalogue();
    const sink = logSink();
    const signals = new EventEmitter();
    const runtime = await startRouterRuntime({
      file,
      logger: sink.logger,
      load: (path) => loadRouterConfig(path, catalogue),
      create: (config) => createRouter({ config }),
      createLimits: (config) => createRouterLimits({ limits: config.limits }),
      signals,
      watchDebounceMs: 0,
    });
    try {
      const [first, ...rest] = textChunks(['Hel', 'lo']);
      upstream.script({ kind: 'stream', items: [first!, { hold: true }, ...rest] });
      const outcome = await runtime
        .router()
        .chat(
          { model: 'team/model-a', messages: [{ role: 'user', content: 'hi' }], stream: true },
          { signal: new AbortController().signal },
        );
      if (outcome.kind !== 'stream') throw new Error('expected a stream');
      const events: string[] = [];
      const reading = (async () => {
        for await (const e of outcome.events) events.push(e);
      })();
      await upstream.holding();
      // The model the stream uses goes away.
      writeFileSync(file, routerFile(upstream, ['team/model-b']));
      signals.emit('SIGHUP');
      await sink.line((l) => l.msg === 'router configuration reloaded');
      upstream.release();
      await reading;
      expect(events.at(-1)).toBe('[DONE]');
      expect((await outcome.result).error).toBeUndefined();
      // A new request sees the new configuration.
      const refused = await runtime
        .router()
        .chat({ model: 'team/model-a', messages: [{ role: 'user', content: 'hi' }] }, { signal: new AbortController().signal })
        .catch((err: unknown) => err);
      expect(isRouterError(refused) && refused.status).toBe(404);
    } finally {
      await runtime.close();
      await upstream.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
