// Weft Studio end to end: the built app served by a real server (SQLite) with seeded data, driven
// in Debian's chromium. Each page loads; the trace tree shows nested calls and an error; the
// Weave SDK's link shape opens a call; the overview charts the project's statistics
// (e2e/overview.ts); sign-out, a refused key and another entity's project are clear screens.
// Human review has its own suite, on both databases (e2e/review.test.ts).
// Screenshots of each page go to e2e/screenshots/ (ignored by git).
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKeyStore, openDatabase } from '@weft/store';
import { generateApiKey, hashApiKey } from '@weft/server/src/auth/index.ts';
import { apiKeyId } from '@weft/server/src/auth/keys.ts';
import { loadConfig } from '@weft/server/src/config.ts';
import { runDemo } from '@weft/server/src/demo/run-demo.ts';
import { startTestServer, type TestServer } from '@weft/server/test/test-server.ts';
import { checkAccessibility, seriousViolations } from './accessibility.ts';
import { browserAvailable, launchChromium } from './browser.ts';
import { checkCallView } from './call-view.ts';
import { checkDatasetView } from './dataset-view.ts';
import { checkEvaluations } from './evaluations.ts';
import { checkHeader } from './header.ts';
import { checkOpSource } from './op-source.ts';
import { checkOverview } from './overview.ts';
import { checkRlRun } from './rl-run.ts';
import { BIG_PROJECT, seed, type Seeded } from './seed.ts';
import { studioPages } from './studio-pages.ts';
import { checkTracesList } from './traces-list.ts';

const WEB_DIR = fileURLToPath(new URL('../dist', import.meta.url));
const SHOTS = fileURLToPath(new URL('./screenshots', import.meta.url));

describe.skipIf(!browserAvailable)('Weft Studio in chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let data: Seeded;
  const foreign: string[] = [];

  beforeAll(async () => {
    if (!existsSync(`${WEB_DIR}/index.html`)) throw new Error(`${WEB_DIR} is not built: run pnpm --filter @weft/web build`);
    mkdirSync(SHOTS, { recursive: true });
    server = await startTestServer('sqlite', { WEB_DIR, VALIDATE_RESPONSES: '1' });
    data = await seed(server.client('alice'), server.client({ scheme: 'bearer', apiKey: server.aliceKey }), 'acme/support-bot');
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 }, timezoneId: 'UTC' });
    // Any script error or failed request of the app fails the test that caused it.
    page.on('pageerror', (err) => {
      throw err;
    });
    // A self-hosted Studio asks nothing of any other origin (no CDN, font or logo).
    page.on('request', (request) => {
      if (!request.url().startsWith(server.url) && !/^(data|blob):/.test(request.url())) foreign.push(request.url());
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
    // The first load, compressed as the server sends it: at most 150 kB over the wire.
    const bytes: Promise<number>[] = [];
    const count = (response: Response) =>
      bytes.push(
        response
          .request()
          .sizes()
          .then((sz) => sz.responseBodySize),
      );
    page.on('response', count);
    await page.goto(`${server.url}/`, { waitUntil: 'networkidle' });
    page.off('response', count);
    const total = (await Promise.all(bytes)).reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(150_000);
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
    await page.getByText('Page 1 of 1 · traces 1–2 of 2').waitFor();
    // Newest first: the failed run started a minute after the other.
    await expect(rows.nth(1).innerText()).resolves.toMatch(/run_agent[\s\S]*Error/);
    await expect(rows.nth(2).innerText()).resolves.toMatch(/run_agent[\s\S]*Success[\s\S]*2\.40 s/);
    await shot('traces');
    await page.getByRole('button', { name: /Started/ }).click();
    await page.waitForURL(/dir=asc/);
    // The URL changes before the re-sorted page arrives: wait for it rather than read the old rows.
    await rows.nth(1).filter({ hasText: 'Success' }).waitFor();
    await expect(rows.nth(2).innerText()).resolves.toMatch(/Error/);

    // Status and start time go to the server as Weave's query language.
    await page.getByLabel('Status').selectOption('error');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/status=error/);
    await page.getByText('Page 1 of 1 · traces 1–1 of 1').waitFor();
    await expect(rows.nth(1).innerText()).resolves.toMatch(/Error/);
    await page.getByLabel('Status').selectOption('');
    await page.getByLabel('Started from').fill('2026-11-25T08:00');
    await page.getByLabel('to', { exact: true }).fill('2026-11-25T08:00');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/from=/);
    // Only the seed's first trace started at 08:00:00 UTC (the page runs in UTC); it succeeded.
    await expect.poll(() => rows.nth(1).innerText(), { timeout: 10_000 }).toMatch(/Success/);
    expect(await rows.count()).toBe(2);
    await page.goto(`${server.url}/acme/support-bot/traces`);
  });

  it('picks columns, sorts by latency, tokens and cost on the server, searches an input field, and pages from both pagers', async () => {
    await checkTracesList(page, server, shot);
  });

  it('shows a trace as a tree with its error, and the selected call’s details', async () => {
    await page.goto(`${server.url}/acme/support-bot/r/call/${data.failedRoot}`);
    const tree = page.getByRole('tree', { name: 'Calls of the trace' });
    await tree.getByRole('treeitem').nth(1).waitFor();
    const items = tree.getByRole('treeitem');
    expect(await items.count()).toBe(2);
    expect(await items.nth(1).getAttribute('aria-level')).toBe('2');
    await expect(page.getByRole('article', { name: 'Call details' }).innerText()).resolves.toMatch(/RateLimitError: 429/);
    // The exception as type and message, not one raw string.
    const exception = page.getByRole('group', { name: 'Exception' });
    expect(await exception.locator('strong').innerText()).toBe('RateLimitError');
    expect(await exception.locator('.exception-message').innerText()).toBe('429 Too Many Requests');
    await shot('trace-error');

    // The Weave SDK's link shape opens a nested call directly, its conversation shown as chat.
    await page.goto(`${server.url}/acme/support-bot/r/call/${data.okLlm}`);
    await page.getByRole('list', { name: 'Conversation' }).first().waitFor();
    // The tree and the call load separately: poll until the tree has its rows.
    const levels = () => page.getByRole('treeitem').evaluateAll((els) => els.map((e) => e.getAttribute('aria-level')));
    await expect.poll(levels).toEqual(['1', '2', '2', '3']);
    await expect(page.getByRole('list', { name: 'Conversation' }).first().innerText()).resolves.toMatch(/How do I reset my password/);
    await shot('trace');

    // Collapsing the LLM call hides its child.
    await page.getByRole('treeitem').nth(2).getByRole('button', { name: 'Collapse' }).click();
    expect(await page.getByRole('treeitem').count()).toBe(3);

    // The keyboard: ↑ selects the call above (the URL follows), → on a collapsed call expands it.
    await page.getByRole('tree').focus();
    await page.keyboard.press('ArrowUp');
    await page.waitForURL(new RegExp(`/r/call/${data.retrieve}$`));
    await page.keyboard.press('ArrowDown');
    await page.waitForURL(new RegExp(`/r/call/${data.okLlm}$`));
    // Focus again first: in about one run in three the tree had lost focus after the navigation
    // above (not understood yet; noted in the closing note), and the key went nowhere.
    await page.getByRole('tree').focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.getByRole('treeitem').count(), { timeout: 10_000 }).toBe(4);
  });

  it('keeps only the rows in view of a trace of 800 calls, and reaches the last one by scrolling', async () => {
    await page.goto(`${server.url}/${BIG_PROJECT}/r/call/${data.bigRoot}`);
    const tree = page.getByRole('tree', { name: 'Calls of the trace' });
    await tree.getByRole('treeitem').first().waitFor();
    expect(await tree.getByRole('treeitem').count()).toBeLessThan(100);
    await page.locator('.tree-scroll').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await tree.getByRole('link', { name: 'item_799', exact: true }).waitFor();
    // The keyboard reaches it too: End selects the last call and the URL follows.
    await tree.focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('End');
    await page.waitForURL(/\/r\/call\/0197331c-0000-7000-8000-000000009800$/);
  });

  it('shows trace totals, kind icons, rows as links and usage as a table per model', async () => {
    await checkCallView(browser, server, SHOTS);
  });

  it('shows the router catalogue with prices per million tokens', async () => {
    await page.getByRole('link', { name: 'Router models' }).click();
    const table = page.getByRole('table', { name: 'Router models' });
    await table.getByRole('row').nth(1).waitFor();
    expect(await table.getByRole('row').count()).toBeGreaterThan(2);
    await expect(table.innerText()).resolves.toMatch(/\$\d/);
    await shot('router-models');
  });

  it('opens a traced LLM call in the playground with its model, messages and project', async () => {
    await page.goto(`${server.url}/acme/support-bot/r/call/${data.okLlm}`);
    await page.getByRole('link', { name: 'Open in playground' }).click();
    await page.waitForURL(/\/playground\?project=acme%2Fsupport-bot&call=/);
    await page.getByLabel('Message 2', { exact: true }).waitFor();
    // The seed's model is not one of the router's: kept, and marked so.
    await expect(page.getByLabel('Model').locator('option:checked').innerText()).resolves.toBe('gpt-4o-mini (not a router model)');
    expect(await page.getByLabel('Message 1', { exact: true }).inputValue()).toBe('You answer support questions.');
    expect(await page.getByLabel('Role of message 2').inputValue()).toBe('user');
    expect(await page.getByLabel('Message 2', { exact: true }).inputValue()).toBe('How do I reset my password?');
    expect(await page.getByLabel('Record in project').inputValue()).toBe('acme/support-bot');
    await shot('playground');
    // Only calls with a model and messages offer it.
    await page.goto(`${server.url}/acme/support-bot/r/call/${data.retrieve}`);
    await page.getByRole('article', { name: 'Call details' }).waitFor();
    expect(await page.getByRole('link', { name: 'Open in playground' }).count()).toBe(0);
  });

  it('shows an object’s versions, their difference, and a dataset’s rows with sorting, virtual scrolling, search, jump and a row drawer', async () => {
    await page.goto(`${server.url}/acme/support-bot/objects`);
    await page.getByRole('link', { name: 'support-questions' }).click();
    const versions = page.getByRole('table', { name: 'Versions' });
    await versions.getByRole('row').nth(2).waitFor();
    await expect(versions.innerText()).resolves.toMatch(/v1[\s\S]*latest[\s\S]*v0/);
    // The older version reads v0, not "v00" (is_latest is the number 0 there).
    expect(await versions.getByRole('row').nth(2).getByRole('cell').first().innerText()).toBe('v0');
    expect(await versions.getByRole('row').nth(1).getByRole('cell').first().innerText()).toBe('v1 latest');
    // Weave's class keys are hidden until asked for.
    const value = page.getByRole('article', { name: 'Version value' });
    const json = value.locator('.json');
    await json.getByText('rows:').waitFor();
    expect(await json.innerText()).not.toMatch(/_bases|_class_name|_type/);
    await value.getByLabel(/Show Weave's internal fields/).check();
    // Keys in the order written (jsonb's order would put name and rows first).
    await expect
      .poll(() => json.innerText(), { timeout: 10_000 })
      .toMatch(/_type: “Dataset”[\s\S]*_class_name: “Dataset”[\s\S]*_bases[\s\S]*name: [\s\S]*rows:/);
    await value.getByLabel(/Show Weave's internal fields/).uncheck();
    await page.getByRole('button', { name: 'diff with v1' }).click();
    const diff = page.getByRole('table', { name: 'Differences from v0 to v1' });
    await diff.waitFor();
    await expect(diff.innerText()).resolves.toMatch(/name\s+"support questions v1"\s+"support questions v2"/);
    await shot('object-diff');

    await page.getByRole('link', { name: /Open the rows of table/ }).click();
    const rows = page.getByRole('table', { name: 'Rows' });
    await page.getByText(`${data.datasetRows.toLocaleString('en-US')} rows`).waitFor();
    await rows.getByRole('cell', { name: 'Question 0', exact: true }).waitFor();
    // Virtual: a 5,000-row table keeps only the rows in view in the page.
    expect(await rows.getByRole('row').count()).toBeLessThan(100);
    await shot('table');
    // Sorting by a nested column, descending on the second click: the hardest questions first.
    await rows.getByRole('button', { name: 'expected.difficulty' }).click();
    await rows.getByRole('button', { name: /expected.difficulty/ }).click();
    await page.waitForURL(/order=desc/);
    await expect.poll(() => rows.getByRole('row').nth(1).innerText(), { timeout: 10_000 }).toMatch(/^\d+\s+Question \d+\s+9$/);
    // Scrolling to the end fetches the last page and shows the last row.
    await page.locator('.vbody').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect
      .poll(() => rows.getByRole('row').last().getAttribute('aria-rowindex'), { timeout: 10_000 })
      .toBe(String(data.datasetRows + 1));
    await checkDatasetView(page, server, data.projectId, SHOTS);
  });

  it('shows an op’s source code, highlighted', async () => {
    await checkOpSource(page, server, data.projectId);
  });

  it('edits an annotation queue, and the edit persists', async () => {
    await page.goto(`${server.url}/acme/support-bot/queues`);
    await page.getByRole('link', { name: 'Answer review' }).click();
    await page.getByLabel('Name').fill('Answer review (June)');
    await page.getByLabel('Description').fill('Second pass');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Answer review (June)' }).waitFor();
    expect(await page.getByLabel('Description').inputValue()).toBe('Second pass');
    const stored = await server.client('alice').GET('/annotation_queues/{queue_id}', {
      params: { path: { queue_id: data.queueId }, query: { project_id: data.projectId } },
    });
    expect(stored.queue).toMatchObject({ name: 'Answer review (June)', description: 'Second pass' });
    await shot('queue');
  });

  it('charts an RL run with titled axes and a readout, pages and sorts a step’s trajectories, and lists its checkpoints', async () => {
    await checkRlRun(browser, server, data, SHOTS);
  });

  it('charts the project overview from calls/stats and feedback/stats, and refetches when the range changes', async () => {
    await checkOverview(browser, server, data, SHOTS);
  });

  it('lists the weave SDK’s evaluation runs, compares two, and finds the regressed examples', async () => {
    await checkEvaluations(browser, server, SHOTS);
  }, 180_000);

  it('renders the API reference at /docs from the served spec, under its CSP', async () => {
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    await page.goto(`${server.url}/docs`);
    // Redoc renders the whole spec before its first heading: slow on 2 busy cores.
    await page.getByRole('heading', { name: /Weft/ }).first().waitFor({ timeout: 60_000 });
    await page.getByText('/table/query_stats').first().waitFor();
    // Nothing is blocked: Redoc's attribution logo is the build's local copy, not its CDN's.
    expect(violations, violations.join('\n')).toEqual([]);
    const logo = page.locator('img[src="/docs/redoc-logo.svg"]');
    await logo.waitFor({ state: 'attached' });
    expect(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    // A way back to Studio.
    expect(
      await page
        .getByRole('navigation', { name: 'Back' })
        .getByRole('link', { name: /Weft Studio/ })
        .getAttribute('href'),
    ).toBe('/');
    await shot('docs');
    page.removeAllListeners('console');
  }, 120_000);

  it('every page works on the data of `weft demo`', async () => {
    const quiet = { write: () => true };
    const config = loadConfig({ DATABASE_URL: server.databaseUrl, LOG_LEVEL: 'silent' });
    expect(await runDemo(config, 'acme/demo', { stdout: quiet, stderr: quiet })).toBe(0);
    const visit = async (path: string, ready: () => Promise<void>) => {
      await page.goto(`${server.url}/acme/demo/${path}`);
      await ready();
      expect(await page.getByRole('alert').count(), path).toBe(0);
    };
    await visit('traces', () => page.getByRole('table', { name: 'Traces' }).getByRole('row').nth(12).waitFor());
    await page.getByRole('table', { name: 'Traces' }).getByRole('link').first().click();
    await page.getByRole('treeitem').nth(2).waitFor();
    await shot('demo-trace');
    await visit('objects', () => page.getByRole('link', { name: 'support-questions' }).waitFor());
    await page.getByRole('link', { name: 'support-questions' }).click();
    await page.getByRole('link', { name: /Open the rows of table/ }).click();
    await page.getByText('50 rows').waitFor();
    await visit('queues', () => page.getByRole('link', { name: 'Answer review' }).waitFor());
    // Three two-turn conversations: the threads list, one thread as its turns, a turn's trace.
    await visit('threads', () => page.getByRole('table', { name: 'Threads' }).getByRole('row').nth(3).waitFor());
    expect(await page.getByRole('table', { name: 'Threads' }).getByRole('row').count()).toBe(4);
    await page.getByRole('link', { name: 'support-chat-1' }).click();
    const turns = page.getByRole('list', { name: 'Turns' }).getByRole('listitem');
    await turns.nth(1).waitFor();
    expect(await turns.count()).toBe(2);
    await expect(turns.nth(0).innerText()).resolves.toMatch(/Turn 1[\s\S]*In[\s\S]*Out/i);
    await shot('demo-thread');
    await turns.nth(1).getByRole('link').first().click();
    await page.waitForURL(/\/acme\/demo\/r\/call\//);
    await page.getByRole('treeitem').first().waitFor();
    // The demo's traces and scores are recent: the overview's default 24 h shows them.
    await visit('overview', () => page.getByRole('img', { name: 'Feedback scores (mean) by time' }).waitFor());
    await shot('demo-overview');
    await visit('runs', () => page.getByRole('link', { name: 'support-agent' }).waitFor());
    await page.getByRole('link', { name: 'support-agent' }).click();
    const reward = page.getByRole('img', { name: 'reward by step' });
    await reward.waitFor();
    expect(await reward.locator('[data-series="train"] circle').count()).toBe(20);
    await shot('demo-run');
  });

  it('switches projects from the header, keeps the project on pages of none, follows the chosen theme, goes anywhere by Cmd-K, and moves through list rows by arrows', async () => {
    await checkHeader(page, server.url, data.failedLlm);
  });

  it('has no serious accessibility violation on any page, light or dark (axe-core)', async () => {
    // After the demo and the evaluations: every page opens on data that fills it.
    const found = await checkAccessibility(page, studioPages(server.url, data));
    expect(found, found.join('\n')).toEqual([]);
    // The check sees what it must: a button with no name is a critical violation.
    await page.evaluate(() => document.querySelector('main')!.append(document.createElement('button')));
    expect(await seriousViolations(page)).toEqual([expect.stringMatching(/^button-name \(critical\)/)]);
  }, 180_000);

  it('disables write actions where the key may only read, with the reason, and only there', async () => {
    // Read on acme, write elsewhere (weft keys create --scope write --scope acme=read).
    const key = generateApiKey();
    const db = await openDatabase(server.databaseUrl, { dataDir: '.' });
    try {
      await createApiKeyStore(db).create({
        id: apiKeyId(key)!,
        key_hash: hashApiKey(key),
        username: 'acme-viewer',
        entities: ['acme', 'lab'],
        scope: 'write',
        entity_scopes: { acme: 'read' },
      });
    } finally {
      await db.close();
    }
    const viewer = await browser.newPage({ viewport: { width: 1280, height: 800 }, timezoneId: 'UTC' });
    try {
      await viewer.goto(`${server.url}/`);
      await viewer.getByLabel('API key').fill(key);
      await viewer.getByRole('button', { name: 'Sign in' }).click();
      await viewer.goto(`${server.url}/acme/support-bot/queues/${data.queueId}`);
      const save = viewer.getByRole('button', { name: 'Save' });
      await viewer.getByText('This API key is read-only here').waitFor();
      expect(await save.isDisabled()).toBe(true);
      expect(await save.getAttribute('title')).toMatch(/read-only/);
      await viewer.goto(`${server.url}/playground?project=acme/support-bot&call=${data.failedLlm}`);
      await viewer.getByText('This API key is read-only here').waitFor();
      expect(await viewer.getByRole('button', { name: 'Run' }).isDisabled()).toBe(true);
      // Recording into lab, where the key writes: Run is offered.
      const project = viewer.getByLabel('Record in project');
      await project.fill('lab/scratch');
      await viewer.getByText('This API key is read-only here').waitFor({ state: 'detached' });
      expect(await viewer.getByRole('button', { name: 'Run' }).isDisabled()).toBe(false);
    } finally {
      await viewer.close();
    }
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

  it('works at phone width (375 px) on every page', async () => {
    await signIn(server.aliceKey);
    await page.setViewportSize({ width: 375, height: 812 });
    try {
      const wide: string[] = [];
      for (const visit of studioPages(server.url, data)) {
        await visit.open(page);
        // Nothing wider than the screen but what scrolls inside its own box (JSON, wide tables).
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        if (overflow > 0) wide.push(`${visit.name}: ${overflow} px too wide`);
      }
      expect(wide).toEqual([]);
      await page.goto(`${server.url}/acme/support-bot/r/call/${data.failedLlm}`);
      await page.getByRole('article', { name: 'Call details' }).waitFor();
      await shot('phone-trace');
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });

  it('asked nothing of another origin on any page it visited', () => {
    expect(foreign).toEqual([]);
  });
});
