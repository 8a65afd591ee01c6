// The playground against the real router: the built app served by a server (SQLite) whose router
// serves one model from a fake upstream (the one thing faked: providers are outside our control).
// The answer renders while the upstream is still streaming; Stop reaches the upstream as a closed
// connection; the Router models page shows the endpoint the runs went through.
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRouter, type Router } from '@weft/router';
import { chunk, delta, startFakeUpstream, testRouterConfig, usageOf, type FakeUpstream } from '@weft/router/testing';
import { startTestServer, type TestServer } from '@weft/server/test/test-server.ts';
import { browserAvailable, launchChromium } from './browser.ts';

const WEB_DIR = fileURLToPath(new URL('../dist', import.meta.url));

describe.skipIf(!browserAvailable)('the playground on the real router', () => {
  let upstream: FakeUpstream;
  let router: Router;
  let server: TestServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    const config = testRouterConfig({
      providers: [{ id: 'fake', base_url: upstream.base_url }],
      // USD per token: 12 prompt and 3 completion tokens cost 0.000018.
      models: [
        { id: 'chat', endpoints: [{ provider: 'fake', model: 'up-chat', pricing: { prompt: '0.000001', completion: '0.000002' } }] },
      ],
    });
    router = createRouter({ config, env: {} });
    server = await startTestServer('sqlite', { WEB_DIR }, undefined, { router: () => router });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (err) => {
      throw err;
    });
    await page.goto(`${server.url}/`);
    await page.getByLabel('API key').fill(server.aliceKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Playground' }).click();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await router?.close();
    await upstream?.close();
  });

  const answer = () => page.getByRole('list', { name: 'Streamed answer' }).innerText();

  it('renders the answer as it streams, then its tokens, cost and provider', async () => {
    upstream.script({
      kind: 'stream',
      items: [chunk([delta(0, { role: 'assistant', content: 'Hello' })]), { hold: true }, chunk([delta(0, { content: ' world' }, 'stop')])],
      usage: usageOf(12, 3),
    });
    await page.getByLabel('Model').selectOption('chat');
    await page.getByLabel('Message 2', { exact: true }).fill('Say hello');
    await page.getByLabel('Temperature').fill('0.5');
    await page.getByRole('button', { name: 'Run' }).click();
    // The first words are on screen while the upstream holds the rest.
    await upstream.holding();
    await expect.poll(answer, { timeout: 10_000 }).toMatch(/Hello$/);
    expect(await page.getByRole('status').filter({ hasText: 'Streaming…' }).count()).toBe(1);
    upstream.release();
    await page.getByRole('status').filter({ hasText: 'Done' }).waitFor();
    expect(await answer()).toMatch(/Hello world$/);
    const facts = await page.getByRole('definition').allInnerTexts();
    expect(facts.slice(2, 5)).toEqual(['12 in · 3 out · 15 total', '$0.000018', 'chat via fake']);
    const received = await upstream.request(0);
    expect(received.body).toMatchObject({
      model: 'up-chat',
      messages: [{ role: 'user', content: 'Say hello' }],
      temperature: 0.5,
      stream: true,
    });
  });

  it('Stop ends the run and the router closes the upstream connection', async () => {
    upstream.script({ kind: 'stream', items: [chunk([delta(0, { role: 'assistant', content: 'Counting: 1' })]), { hold: true }] });
    await page.getByRole('button', { name: 'Run' }).click();
    await expect.poll(answer, { timeout: 10_000 }).toMatch(/Counting: 1$/);
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByRole('status').filter({ hasText: 'Stopped' }).waitFor();
    const received = await upstream.request(1);
    await received.closed;
    expect(received.client_closed).toBe(true);
    upstream.release();
  });

  it('shows the router’s error in OpenAI’s shape', async () => {
    upstream.script({
      kind: 'error',
      status: 400,
      body: { error: { message: 'max_tokens is too large', type: 'invalid_request_error', param: 'max_tokens', code: null } },
    });
    await page.getByLabel('Max tokens').fill('999999');
    await page.getByRole('button', { name: 'Run' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    await expect(alert.innerText()).resolves.toMatch(
      /400 from fake: max_tokens is too large\s+invalid_request_error · code upstream_rejected · field max_tokens · HTTP 400/,
    );
  });

  it('lists the endpoint the runs went through on the Router models page', async () => {
    await page.getByRole('link', { name: 'Router models' }).click();
    const cell = page.getByRole('cell', { name: 'Endpoints of chat' });
    await cell.getByRole('listitem').first().waitFor();
    await expect(cell.innerText()).resolves.toMatch(/fake up-chat ok\s+[1-9]\d* requests/);
  });
});
