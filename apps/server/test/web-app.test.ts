// Weft Studio served by the server: its files at /, hashed assets cached for good, deep links
// answered with the app for browsers only, security headers on the app, the spec at /openapi.json,
// and every path of the spec answered by its operation, never by the app; precompressed files sent
// in the encoding the client accepts.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../src/http/spec.ts';
import { startTestServer, type TestServer } from './test-server.ts';

const INDEX = '<!doctype html><title>Weft Studio</title><script type="module" src="/assets/index-Ab12.js"></script>';
const DOCS = '<!doctype html><redoc spec-url="/openapi.json"></redoc><script src="/docs/redoc.standalone.js"></script>';
const BIG = `${'console.log("Weft Studio");\n'.repeat(200)}`;
const HTML = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe('Weft Studio served by the server', () => {
  let server: TestServer;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-web-'));
    mkdirSync(join(dir, 'assets'));
    mkdirSync(join(dir, 'docs'));
    writeFileSync(join(dir, 'index.html'), INDEX);
    writeFileSync(join(dir, 'docs', 'index.html'), DOCS);
    writeFileSync(join(dir, 'docs', 'redoc.standalone.js'), 'void 0');
    writeFileSync(join(dir, 'assets', 'index-Ab12.js'), 'console.log(1)');
    // As the build leaves them (apps/web/dev/precompress.ts): each text file beside its .br and .gz.
    writeFileSync(join(dir, 'assets', 'app-Cd34.js'), BIG);
    writeFileSync(join(dir, 'assets', 'app-Cd34.js.br'), brotliCompressSync(BIG));
    writeFileSync(join(dir, 'assets', 'app-Cd34.js.gz'), gzipSync(BIG));
    server = await startTestServer('sqlite', { WEB_DIR: dir });
  });
  afterAll(() => server.close());
  const get = (path: string, headers: Record<string, string> = HTML) => fetch(`${server.url}${path}`, { headers });

  it('answers / and deep links with the app, revalidated, behind a strict CSP', async () => {
    for (const path of ['/', '/router-models', '/acme/support-bot/r/call/0197331c-8b0e-7c3a-9f5e-2d41c7a0b6e1']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(await res.text()).toBe(INDEX);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self';/);
      expect(res.headers.get('content-security-policy')).not.toMatch(/unsafe-inline/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('caches hashed assets for a year; a missing asset is a 404, not the app', async () => {
    const res = await get('/assets/index-Ab12.js', {});
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await res.text()).toBe('console.log(1)');
    const missing = await get('/assets/gone-Zz99.js');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error_type: expect.any(String) });
  });

  it('sends the precompressed file the client accepts (brotli first), with Vary, and the plain one otherwise', async () => {
    // Node's fetch decodes what it receives: the text must come back whole in every encoding.
    for (const [accept, encoding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
      ['identity', null],
    ] as const) {
      const res = await get('/assets/app-Cd34.js', { 'Accept-Encoding': accept });
      expect(res.status, accept).toBe(200);
      expect(res.headers.get('content-encoding'), accept).toBe(encoding);
      expect(res.headers.get('vary'), accept).toMatch(/Accept-Encoding/);
      expect(res.headers.get('content-type'), accept).toMatch(/javascript/);
      expect(res.headers.get('cache-control'), accept).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('x-content-type-options'), accept).toBe('nosniff');
      expect(await res.text(), accept).toBe(BIG);
    }
    // What went over the wire, counted without decoding: the brotli file's bytes.
    const raw = await new Promise<number>((resolve, reject) => {
      httpGet(`${server.url}/assets/app-Cd34.js`, { headers: { 'Accept-Encoding': 'br' } }, (res) => {
        let n = 0;
        res.on('data', (chunk: Buffer) => (n += chunk.length));
        res.on('end', () => resolve(n));
      }).on('error', reject);
    });
    expect(raw).toBe(brotliCompressSync(BIG).length);
  });

  it('a path that does not decode is the JSON 404, not a text 400', async () => {
    const res = await get('/%E0%A4%A');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/json/);
  });

  it('an API client asking for a path that does not exist still gets the JSON 404', async () => {
    const res = await get('/no/such/operation', { Accept: 'application/json' });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/json/);
    expect((await get('/no/such/operation', {})).status).toBe(404);
    // A path of the spec with another method: the operation's 405, not the app.
    expect((await fetch(`${server.url}/projects`, { method: 'DELETE', headers: HTML })).status).toBe(405);
  });

  it('serves the API reference at /docs, whose renderer may inject styles but never inline scripts', async () => {
    for (const path of ['/docs', '/docs/']) {
      const res = await get(path, {});
      expect(res.status, path).toBe(200);
      expect(await res.text()).toBe(DOCS);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toMatch(/script-src 'self';/);
      expect(csp).toMatch(/style-src 'self' 'unsafe-inline'/);
    }
    const bundle = await get('/docs/redoc.standalone.js', {});
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
    // The app itself keeps the strict policy.
    expect((await get('/')).headers.get('content-security-policy')).not.toMatch(/unsafe-inline/);
  });

  it('serves the bundled spec at /openapi.json', async () => {
    const res = await get('/openapi.json', {});
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\.1/);
    expect(Object.keys(doc.paths)).toContain('/projects');
  });

  it('every path of the spec is its operation’s, even for a browser: never the app', async () => {
    for (const op of operations) {
      const path = op.path.replace(/\{[^}]+\}/g, 'x');
      const res = await get(path);
      const text = await res.text();
      expect(text, `${op.method} ${op.path} answered ${res.status}`).not.toBe(INDEX);
      expect(res.headers.get('content-security-policy'), op.path).toBeNull();
    }
  });
});

describe('a server without the app built', () => {
  it('answers unknown paths with the JSON 404, browsers included', async () => {
    const server = await startTestServer('sqlite', { WEB_DIR: join(tmpdir(), 'weft-no-such-web-dir') });
    try {
      const res = await fetch(`${server.url}/router-models`, { headers: HTML });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/json/);
    } finally {
      await server.close();
    }
  });
});
