// Weft Studio end to end: the built app served by a real server (SQLite) with seeded data, driven
// in Debian's chromium. Each page loads; the trace tree shows nested calls and an error; the
// Weave SDK's link shape opens a call; sign-out, a refused key and another entity's project are
// clear screens. Screenshots of each page go to e2e/screenshots/ (ignored by git).
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '@weft/server/test/test-server.ts';
import { browserAvailable, launchChromium } from './browser.ts';
import { seed, type Seeded } from './seed.ts';

const WEB_DIR = fileURLToPath(new URL('../dist', import.meta.url));
const SHOTS = fileURLToPath(new URL('./screenshots', import.meta.url));

describe.skipIf(!browserAvailable)('Weft Studio in chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let data: Seeded;

  beforeAll(async () => {
    if (!existsSync(`${WEB_DIR}/index.html`)) throw new Error(`${WEB_DIR} is not built: run pnpm --filter @weft/web build`);
    mkdirSync(SHOTS, { recursive: true });
    server = await startTestServer('sqlite', { WEB_DIR, VALIDATE_RESPONSES: '1' });
    data = await seed(server.client('alice'), 'acme/support-bot');
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // Any script error or failed request of the app fails the test that caused it.
    page.on('pageerror', (err) => {
      throw err;
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  const signIn = async (key: string) => {
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
  };

  it('signs in with a key and lists the projects it can reach', async () => {
    await page.goto(`${server.url}/`);
    await expect(page.getByRole('heading', { name: 'Weft Studio' }).isVisible()).resolves.toBe(true);
    await shot('sign-in');
    await signIn(server.aliceKey);
    await page.getByRole('link', { name: /support-bot/ }).waitFor();
    // The key is in this tab's session storage, and nowhere in the URL.
    expect(await page.evaluate(() => sessionStorage.getItem('weft.apiKey'))).toBe(server.aliceKey);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    expect(page.url()).not.toContain(server.aliceKey);
    await shot('projects');
  });

  it('lists root calls with status, latency and tokens, sorted by the chosen column', async () => {
    await page.getByRole('link', { name: /support-bot/ }).click();
    const table = page.getByRole('table', { name: 'Traces' });
    await table.getByRole('row').nth(2).waitFor();
    const rows = table.getByRole('row');
    expect(await rows.count()).toBe(3); // header + the two roots, children not listed
    // Newest first: the failed run started a minute after the other.
    await expect(rows.nth(1).innerText()).resolves.toMatch(/run_agent[\s\S]*Error/);
    await expect(rows.nth(2).innerText()).resolves.toMatch(/run_agent[\s\S]*Success[\s\S]*2\.40 s/);
    await shot('traces');
    await page.getByRole('button', { name: /Started/ }).click();
    await page.waitForURL(/dir=asc/);
    await expect(rows.nth(1).innerText()).resolves.toMatch(/Success/);
  });

  it('shows a trace as a tree with its error, and the selected call’s details', async () => {
    await page.goto(`${server.url}/acme/support-bot/r/call/${data.failedRoot}`);
    const tree = page.getByRole('tree', { name: 'Calls of the trace' });
    await tree.getByRole('treeitem').nth(1).waitFor();
    const items = tree.getByRole('treeitem');
    expect(await items.count()).toBe(2);
    expect(await items.nth(1).getAttribute('aria-level')).toBe('2');
    await expect(page.getByRole('article', { name: 'Call details' }).innerText()).resolves.toMatch(/RateLimitError: 429/);
    await shot('trace-error');

    // The Weave SDK's link shape opens a nested call directly, its conversation shown as chat.
    await page.goto(`${server.url}/acme/support-bot/r/call/${data.okLlm}`);
    await page.getByRole('list', { name: 'Conversation' }).first().waitFor();
    const levels = await page.getByRole('treeitem').evaluateAll((els) => els.map((e) => e.getAttribute('aria-level')));
    expect(levels).toEqual(['1', '2', '2', '3']);
    await expect(page.getByRole('list', { name: 'Conversation' }).first().innerText()).resolves.toMatch(/How do I reset my password/);
    await shot('trace');

    // Collapsing the LLM call hides its child.
    await page.getByRole('treeitem').nth(2).getByRole('button', { name: 'Collapse' }).click();
    expect(await page.getByRole('treeitem').count()).toBe(3);
  });

  it('shows the router catalogue with prices per million tokens', async () => {
    await page.getByRole('link', { name: 'Router models' }).click();
    const table = page.getByRole('table', { name: 'Router models' });
    await table.getByRole('row').nth(1).waitFor();
    expect(await table.getByRole('row').count()).toBeGreaterThan(2);
    await expect(table.innerText()).resolves.toMatch(/\$\d/);
    await shot('router-models');
  });

  it('says so when the key may not see a project', async () => {
    await page.goto(`${server.url}/globex/secret/traces`);
    await page.getByRole('alert').waitFor();
    await expect(page.getByRole('alert').innerText()).resolves.toMatch(/may not see[\s\S]*globex/);
    await shot('forbidden');
  });

  it('signs out, and a refused key returns to sign-in with a reason', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('weft.apiKey'))).toBeNull();
    await signIn('not-a-key');
    await page.getByRole('alert').waitFor();
    await expect(page.getByRole('alert').innerText()).resolves.toMatch(/refused/);
    await shot('refused-key');
  });

  it('works at phone width', async () => {
    await signIn(server.aliceKey);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.url}/acme/support-bot/r/call/${data.failedLlm}`);
    await page.getByRole('article', { name: 'Call details' }).waitFor();
    // Nothing wider than the screen but the scrollable JSON and tables.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot('phone-trace');
  });
});
