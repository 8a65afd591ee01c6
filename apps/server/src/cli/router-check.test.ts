// `weft router check` against fake upstreams: a valid file and each provider probed (ok, an
// error status, nothing listening, a key variable unset) with its key sent but never printed;
// a bad file listed by line with exit 1.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeUpstream, type FakeUpstream } from '@weft/router/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { weftInProcess } from '../../test/weft-in-process.ts';

const KEY = 'sk-router-check-0123456789';

const weft = (...argv: string[]) => weftInProcess(argv);

describe('weft router check', () => {
  let good: FakeUpstream;
  // The fake upstream lists its models to anyone: this one refuses every key, as a provider does a wrong one.
  let refusing: Server;
  let refusingUrl: string;
  let closedUrl: string;
  let dir: string;
  const listen = async (server: Server) => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  };
  beforeAll(async () => {
    good = await startFakeUpstream();
    refusing = createServer((_req, res) =>
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"bad key"}}'),
    );
    refusingUrl = await listen(refusing);
    // A port that was just free: nothing listens there.
    const gone = createServer();
    closedUrl = await listen(gone);
    await new Promise((resolve) => gone.close(resolve));
    dir = mkdtempSync(join(tmpdir(), 'weft-router-check-'));
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await good?.close();
    await new Promise((resolve) => refusing?.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('validates the file and probes each provider, sending its key and never printing it', async () => {
    vi.stubEnv('CHECK_GOOD_KEY', KEY);
    vi.stubEnv('CHECK_REFUSING_KEY', KEY);
    vi.stubEnv('CHECK_UNSET_KEY', '');
    const path = file(
      'router.yaml',
      [
        'providers:',
        '  good:',
        `    base_url: ${good.base_url}`,
        '    api_key_env: CHECK_GOOD_KEY',
        '    headers: { X-Title: Weft }',
        '  refusing:',
        `    base_url: ${refusingUrl}`,
        '    api_key_env: CHECK_REFUSING_KEY',
        '  closed:',
        `    base_url: ${closedUrl}`,
        '  unset:',
        `    base_url: ${good.base_url}`,
        '    api_key_env: CHECK_UNSET_KEY',
        'models:',
        '  - id: team/m',
        '    context_length: 8192',
        '    endpoints:',
        '      - provider: good',
        '        pricing: {}',
        '',
      ].join('\n'),
    );
    const out = await weft('router', 'check', '--config', path);
    expect(out.code).toBe(1);
    expect(out.stdout).toContain(`${path}: valid (4 providers, 1 models)`);
    expect(out.stdout).toMatch(new RegExp(`^ok {6}good {6}\\s*\\d+ ms  GET ${good.base_url}/models: 200$`, 'm'));
    expect(out.stdout).toMatch(/^failed {2}refusing\s+\d+ ms {2}GET .*\/models: 401 Unauthorized$/m);
    expect(out.stdout).toContain(`GET ${closedUrl}/models: ECONNREFUSED\n`);
    expect(out.stdout).toMatch(/^failed {2}closed\s+\d+ ms {2}GET /m);
    expect(out.stdout).toMatch(/^failed {2}unset\s+0 ms {2}CHECK_UNSET_KEY is not set$/m);
    expect(out.stdout + out.stderr).not.toContain(KEY);
    const seen = good.requests.find((r) => r.path === '/v1/models');
    expect(seen?.method).toBe('GET');
    expect(seen?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(seen?.headers['x-title']).toBe('Weft');
    expect(good.requests).toHaveLength(1);
  });

  it('exits 0 when every provider answers, and probes nothing with --no-probe', async () => {
    const path = file(
      'ok.yaml',
      `providers:\n  good:\n    base_url: ${good.base_url}\nmodels:\n  - id: team/m\n    context_length: 8\n    endpoints: [{ provider: good, pricing: {} }]\n`,
    );
    const before = good.requests.length;
    const out = await weft('router', 'check', '--config', path);
    expect(out).toMatchObject({ code: 0, stderr: '' });
    expect(out.stdout).toMatch(/^ok {6}good\s+\d+ ms/m);
    expect(good.requests).toHaveLength(before + 1);
    const quiet = await weft('router', 'check', '--config', path, '--no-probe');
    expect(quiet).toMatchObject({ code: 0, stdout: `${path}: valid (1 providers, 1 models)\n` });
    expect(good.requests).toHaveLength(before + 1);
  });

  it('lists every problem of a bad file by line and exits 1, probing nothing', async () => {
    const path = file('bad.yaml', `providers:\n  good:\n    base_url: ${good.base_url}\n    colour: blue\nmodels:\n  - id: 12\n`);
    const before = good.requests.length;
    const out = await weft('router', 'check', '--config', path);
    expect(out.code).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toContain(`${path}:4:5: providers.good.colour`);
    expect(out.stderr).toMatch(new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:6:\\d+`));
    expect(good.requests).toHaveLength(before);
  });

  it('needs a file', async () => {
    vi.stubEnv('ROUTER_CONFIG', '');
    expect(await weft('router', 'check')).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/pass --config FILE or set ROUTER_CONFIG/),
    });
  });
});
