// Evaluations end to end (studio.test.ts runs it with its browser and server): the published
// `weave` TypeScript SDK evaluates two models on the same 50 sums (the second wrong on the 17
// rows n = 0, 3, …, 48), then Studio lists the runs, compares the two with the right pass rates and
// deltas, and finds the 17 regressed examples.
import type { Browser } from 'playwright-core';
import { expect } from 'vitest';
import { runSdkScript } from '@weft/server/test/weave-sdk/run-sdk-script.ts';
import type { TestServer } from '@weft/server/test/test-server.ts';
import { signedInPage } from './browser.ts';

const PROJECT = 'acme/weave-eval-web';
// The rows the second model gets wrong.
const MISSES = Array.from({ length: 17 }, (_, i) => 3 * i);

export async function checkEvaluations(browser: Browser, server: TestServer, shots: string): Promise<void> {
  const run = await runSdkScript({
    url: server.url,
    apiKey: server.aliceKey,
    project: PROJECT,
    timeoutMs: 120_000,
    script: 'weave-eval-script.mjs',
  });
  expect(run.code, run.stderr).toBe(0);
  const page = await signedInPage(browser, server.url, server.aliceKey, 1400);
  try {
    await page.goto(`${server.url}/${PROJECT}/evaluations`);
    const list = page.getByRole('table', { name: 'Evaluations' });
    // Two Evaluation.evaluate runs and the EvaluationLogger's.
    await list.getByRole('row').nth(3).waitFor();
    expect(await list.getByRole('row').count()).toBe(4);
    const byModel = (model: string) => list.getByRole('row').filter({ has: page.getByRole('cell', { name: model, exact: true }) });
    await expect(byModel('adder').innerText()).resolves.toMatch(/sums-eval[\s\S]*adder[\s\S]*sums[\s\S]*Success/);
    await page.screenshot({ path: `${shots}/evaluations.png`, fullPage: true });
    await byModel('adder').getByRole('checkbox').check();
    await byModel('sloppy_adder').getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Compare (2)' }).click();
    await page.waitForURL(/\/evaluations\/compare\?ids=/);

    // The summary: exact_match 100% against 33/50 = 66.0% (−34.0 pt); distance 0 against 17/50.
    const summary = page.getByRole('table', { name: 'Summary' });
    const exact = summary.locator('tr[data-metric="exact_match"]');
    await exact.waitFor();
    await expect(exact.innerText()).resolves.toMatch(/100\.0%[\s\S]*66\.0%\s*−34\.0 pt/);
    await expect(summary.locator('tr[data-metric="distance"]').innerText()).resolves.toMatch(/0\.000[\s\S]*0\.340\s*\+0\.340/);
    const examples = page.getByRole('table', { name: 'Examples' });
    await page.getByRole('status').filter({ hasText: '50 examples.' }).waitFor();

    // Only the regressions: the 17 examples the second model got wrong.
    await page.getByLabel('Changed score').selectOption('exact_match');
    await page.getByRole('status').filter({ hasText: '17 examples where exact_match got worse.' }).waitFor();
    const rows = examples.locator('tbody tr');
    expect(await rows.count()).toBe(17);
    const ns = (await rows.locator('td:first-child').allInnerTexts()).map((t) => Number(/"n":(\d+)/.exec(t)?.[1])).sort((a, b) => a - b);
    expect(ns).toEqual(MISSES);
    for (const text of await rows.locator('[data-score="exact_match"].worse dd').allInnerTexts()) expect(text).toBe('0');
    await page.screenshot({ path: `${shots}/evaluation-compare.png`, fullPage: true });

    // distance: lower is better. Marked so, its rise reads as worse, and "got worse" finds the same 17.
    const distance = summary.locator('tr[data-metric="distance"]');
    expect(await distance.locator('.delta').getAttribute('class')).toBe('delta better');
    await distance.getByRole('button', { name: 'higher is better' }).click();
    await distance.getByRole('button', { name: 'lower is better' }).waitFor();
    expect(await distance.locator('.delta').getAttribute('class')).toBe('delta worse');
    await page.getByLabel('Changed score').selectOption('distance');
    await page.getByRole('status').filter({ hasText: '17 examples where distance got worse.' }).waitFor();
    expect(await rows.locator('[data-score="distance"].worse').count()).toBe(17);

    // Sorted by distance's spread across the runs: the wrong 17 first; each cell opens its trace.
    await page.getByLabel('Changed score').selectOption('');
    await page.getByLabel('Sort by').selectOption('distance');
    await page.waitForURL(/sort=distance/);
    await page.getByRole('status').filter({ hasText: '50 examples.' }).waitFor();
    // The sorted page replaces the unsorted one when its answer arrives: poll the order itself.
    const firstMisses = async () =>
      (await rows.locator('td:first-child').allInnerTexts())
        .slice(0, MISSES.length)
        .map((t) => Number(/"n":(\d+)/.exec(t)?.[1]))
        .sort((a, b) => a - b);
    await expect.poll(firstMisses).toEqual(MISSES);
    await rows.first().locator('td').nth(2).getByRole('link').click();
    await page.waitForURL(new RegExp(`/${PROJECT}/r/call/`));
    await page.getByRole('treeitem').first().waitFor();

    // The traces list offers the ops the SDK published for its op filter, and says when calls started.
    await page.goto(`${server.url}/${PROJECT}/traces`);
    // The datalist fills when objs/query answers, after the page renders: poll, not read once.
    const ops = () => page.locator('datalist#trace-ops option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    await expect.poll(ops).toEqual(expect.arrayContaining([`weave:///${PROJECT}/op/adder:*`, `weave:///${PROJECT}/op/sloppy_adder:*`]));
    const started = page.getByRole('table', { name: 'Traces' }).locator('time').first();
    await started.waitFor();
    expect(await started.innerText()).toMatch(/ago|now/);
    expect(Date.parse((await started.getAttribute('datetime'))!)).toBeGreaterThan(Date.now() - 3_600_000);
  } finally {
    await page.close();
  }
}
