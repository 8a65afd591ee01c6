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
});
