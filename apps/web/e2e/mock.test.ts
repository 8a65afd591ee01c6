// `pnpm dev:web` against the mock alone: Vite's dev server with the Prism mock of the spec (no
// server, no database); the app signs in with any key and shows the spec's examples.
import { createServer as netServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, launchChromium } from './browser.ts';

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = netServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

async function waitFor(ok: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await ok().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the mock did not start within 30 s');
}

describe.skipIf(!browserAvailable)('the app on the Prism mock (pnpm dev:web)', () => {
  let vite: ViteDevServer;
  let browser: Browser;
  let url: string;

  beforeAll(async () => {
    process.env.WEFT_MOCK_PORT = String(await freePort());
    delete process.env.WEFT_API;
    vite = await createServer({
      root: fileURLToPath(new URL('..', import.meta.url)),
      server: { port: await freePort() },
      logLevel: 'silent',
    });
    await vite.listen();
    url = vite.resolvedUrls!.local[0]!;
    // Through Vite's proxy: the mock has started once the spec's health example comes back.
    await waitFor(async () => (await fetch(`${url}health`)).ok);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await vite?.close();
  });

  it('shows the projects and the traces of the spec’s examples', async () => {
    const page = await browser.newPage();
    page.on('pageerror', (err) => {
      throw err;
    });
    await page.goto(url);
    await page.getByLabel('API key').fill('any-key-the-mock-accepts');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: /support-bot/ }).click();
    const table = page.getByRole('table', { name: 'Traces' });
    await table.getByRole('row').nth(1).waitFor();
    await expect(table.innerText()).resolves.toMatch(/Password reset \(good answer\)/);
  });

  // The mock answers the spec's examples: a streamed answer of three chunks and [DONE], and with
  // `Prefer: code=502` the documented OpenAI-shaped error.
  it('streams an answer in the playground with its latency, tokens, cost and provider', async () => {
    const page = await signedIn();
    await page.getByRole('link', { name: 'Playground' }).click();
    await page.getByLabel('Model').selectOption('meta-llama/Llama-3.1-8B-Instruct');
    await page.getByLabel('Message 1', { exact: true }).fill('You answer in one sentence.');
    await page.getByLabel('Message 2', { exact: true }).fill('What is Weft?');
    await page.getByLabel('Temperature').fill('0.2');
    await page.getByLabel('Stop sequences').fill('END');
    const sent = page.waitForRequest('**/inference/router/gateway/chat/completions');
    await page.getByRole('button', { name: 'Run' }).click();
    expect((await sent).postDataJSON()).toEqual({
      model: 'meta-llama/Llama-3.1-8B-Instruct',
      messages: [
        { role: 'system', content: 'You answer in one sentence.' },
        { role: 'user', content: 'What is Weft?' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.2,
      stop: ['END'],
    });
    await page.getByRole('status').filter({ hasText: 'Done' }).waitFor();
    const answer = page.getByRole('region', { name: 'Answer' });
    await expect(answer.getByRole('list', { name: 'Streamed answer' }).innerText()).resolves.toMatch(/assistant · finish: stop\s+Weft$/i);
    const facts = await answer.getByRole('definition').allInnerTexts();
    // Latency, time to first token, tokens, cost, served by.
    const duration = /^(\d+ ms|\d+\.\d+ s)$/;
    expect(facts[0]).toMatch(duration);
    expect(facts[1]).toMatch(duration);
    expect(facts.slice(2, 5)).toEqual(['9 in · 1 out · 10 total', '$0.0000022', 'meta-llama/Llama-3.1-8B-Instruct via vllm-eu']);
    await page.close();
  });

  it('shows the router’s error readably, and Stop aborts a run that is waiting', async () => {
    const page = await signedIn();
    await page.goto(`${url}playground?model=${encodeURIComponent('meta-llama/Llama-3.1-8B-Instruct')}`);
    await page.getByLabel('Message 2', { exact: true }).fill('Hello');
    // Prism answers a status's example only in a media type it has (the error's is JSON).
    await page.route('**/inference/router/gateway/chat/completions', (route) =>
      route.continue({ headers: { ...route.request().headers(), accept: 'application/json', prefer: 'code=502' } }),
    );
    await page.getByRole('button', { name: 'Run' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    await expect(alert.innerText()).resolves.toMatch(
      /All 2 endpoints of meta-llama\/Llama-3\.1-8B-Instruct failed: 503 from vllm-eu\s+upstream_error · code upstream_unavailable · HTTP 502/,
    );
    await page.unrouteAll();

    // A request the network never answers: Stop ends it in the page.
    let held = false;
    await page.route('**/inference/router/gateway/chat/completions', () => {
      held = true;
    });
    await page.getByRole('button', { name: 'Run' }).click();
    await page.getByRole('status').filter({ hasText: 'Streaming…' }).waitFor();
    expect(held).toBe(true);
    const failed = page.waitForEvent('requestfailed');
    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByRole('status').filter({ hasText: 'Stopped' }).waitFor();
    expect((await failed).url()).toMatch(/chat\/completions$/);
    expect(await page.getByRole('button', { name: 'Run' }).isEnabled()).toBe(true);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.close();
  });

  it('shows each router model’s endpoints with their health', async () => {
    const page = await signedIn();
    await page.getByRole('link', { name: 'Router models' }).click();
    const cell = page.getByRole('cell', { name: 'Endpoints of meta-llama/Llama-3.1-8B-Instruct' });
    await cell.getByRole('listitem').nth(1).waitFor();
    const [first, second] = await cell.getByRole('listitem').allInnerTexts();
    expect(first).toMatch(/vllm-eu llama-3\.1-8b ok\s+120 requests · 1 errors \(0\.83%\) · p50 413 ms · TTFT 88 ms/);
    expect(second).toMatch(
      /openrouter meta-llama\/llama-3\.1-8b-instruct cooling down until .+\s+14 requests · 6 errors \(43%\) · p50 655 ms · TTFT 140 ms/,
    );
    await page.close();
  });

  async function signedIn() {
    const page = await browser.newPage();
    page.on('pageerror', (err) => {
      throw err;
    });
    await page.goto(url);
    await page.getByLabel('API key').fill('any-key-the-mock-accepts');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: /support-bot/ }).waitFor();
    return page;
  }
});
