// The traces list's column picker, server-side sort by latency, tokens and cost, text search and
// both pagers, end to end (studio.test.ts runs it with its signed-in page): 60 root calls of a
// project of their own, written in one batch, with distinct latencies, one question in ten about
// billing, and usage of four kinds (none, a priced model, a priced and an unpriced one, only an
// unpriced one).
import type { CallSchema } from '@weft/types';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestServer } from '@weft/server/test/test-server.ts';
import { costOf, tokensOf } from '../src/call-facts.ts';

export const LIST_PROJECT = 'acme/many-traces';
const ROOTS = 60;
const T0 = Date.parse('2026-11-26T08:00:00.000Z');
const iso = (ms: number) => new Date(T0 + ms).toISOString();
/** Distinct latencies in a shuffled order: 37 is prime to 60, so i*37 mod 60 visits each residue once. */
const latencyOf = (i: number) => (((i * 37) % ROOTS) + 1) * 10 + 7;

/** Usage by i mod 4: none; the catalogue's 8B; its 70B (OpenAI's aliases) and a house model; the house model only (no price). */
function usageOf(i: number): Record<string, unknown> | undefined {
  const house = 'acme/house-model';
  switch (i % 4) {
    case 1:
      return { 'meta-llama/Llama-3.1-8B-Instruct': { prompt_tokens: 100 + ((i * 37) % ROOTS) * 10, completion_tokens: 20 } };
    case 2:
      return { 'meta-llama/Llama-3.1-70B-Instruct': { input_tokens: 50 + i, output_tokens: 5 }, [house]: { total_tokens: 5000 + i } };
    case 3:
      return { [house]: { total_tokens: 1000 + ((i * 7) % ROOTS) } };
    default:
      return undefined;
  }
}

async function seedRoots(server: TestServer): Promise<void> {
  const id = (i: number) => `0197331d-0000-7000-8000-${String(i).padStart(12, '0')}`;
  await server.client('alice').POST('/call/upsert_batch', {
    body: {
      batch: Array.from({ length: ROOTS }, (_, i) => [
        {
          mode: 'start' as const,
          req: {
            start: {
              project_id: LIST_PROJECT,
              id: id(i),
              trace_id: id(1000 + i),
              op_name: `weave:///${LIST_PROJECT}/op/answer:v${i % 2}`,
              started_at: iso(i * 60_000),
              attributes: {},
              inputs: { question: i % 10 === 3 ? `Question ${i} about Billing` : `Question ${i}` } as unknown as Record<string, never>,
            },
          },
        },
        {
          mode: 'end' as const,
          req: {
            end: {
              project_id: LIST_PROJECT,
              id: id(i),
              ended_at: iso(i * 60_000 + latencyOf(i)),
              output: { answer: `Answer ${i}` } as unknown as Record<string, never>,
              summary: (usageOf(i) ? { usage: usageOf(i) } : {}) as unknown as Record<string, never>,
            },
          },
        },
      ]).flat(),
    },
  });
}

export async function checkTracesList(page: Page, server: TestServer, shot: (name: string) => Promise<unknown>): Promise<void> {
  await seedRoots(server);
  await page.goto(`${server.url}/${LIST_PROJECT}/traces`);
  const table = page.getByRole('table', { name: 'Traces' });
  const rows = table.getByRole('row');
  const headers = async () => (await table.getByRole('columnheader').allInnerTexts()).map((t) => t.replace(/[▲▼]/g, '').trim());
  const top = page.getByRole('navigation', { name: 'Pages (top)' });
  const bottom = page.getByRole('navigation', { name: 'Pages (bottom)' });
  await bottom.getByText(`Page 1 of 2 · traces 1–50 of ${ROOTS}`).waitFor();
  await expect(top.innerText()).resolves.toMatch(`Page 1 of 2 · 1–50 of ${ROOTS}`);
  expect(await rows.count()).toBe(51);

  // The default columns: the inputs and output previewed on one line; no user or thread.
  expect(await headers()).toEqual(expect.arrayContaining(['Inputs', 'Output', 'Latency', 'Tokens', 'Cost', 'Feedback']));
  expect(await headers()).not.toContain('User');
  await expect(rows.nth(1).locator('[data-column="inputs"]').innerText()).resolves.toBe(`question: Question ${ROOTS - 1}`);
  await expect(rows.nth(1).locator('[data-column="output"]').innerText()).resolves.toBe(`answer: Answer ${ROOTS - 1}`);

  // The picker: hiding the preview removes both columns, showing the thread adds one; in the URL.
  const picker = page.locator('.column-picker');
  await picker.getByText(/^Columns/).click();
  const columns = picker.getByRole('group', { name: 'Shown columns' });
  // Clicked rather than uncheck(): the box follows the URL, which React Router updates a moment later.
  const io = columns.getByRole('checkbox', { name: 'Inputs / output' });
  await io.click();
  await expect.poll(() => io.isChecked()).toBe(false);
  await page.waitForURL(/cols=/);
  await expect.poll(headers).not.toContain('Inputs');
  expect(await headers()).not.toContain('Output');
  await columns.getByRole('checkbox', { name: 'Thread' }).click();
  await expect.poll(headers).toContain('Thread');
  // A reload keeps the choice (it is in the URL).
  await page.reload();
  await table.getByRole('row').nth(50).waitFor();
  expect(await headers()).toContain('Thread');
  expect(await headers()).not.toContain('Inputs');
  await page
    .locator('.column-picker')
    .getByText(/^Columns/)
    .click();
  await page.getByRole('button', { name: 'Default columns' }).click();
  await expect.poll(headers).toContain('Inputs');
  expect(page.url()).not.toMatch(/cols=/);
  // The menu closes as menus do: on Escape, with the focus back on its button, and on a press outside.
  await page.keyboard.press('Escape');
  await columns.waitFor({ state: 'detached' });
  expect(await page.evaluate(() => document.activeElement?.textContent)).toMatch(/^Columns/);
  await page.keyboard.press('Enter');
  await columns.waitFor();
  await page.getByRole('heading').first().click();
  await columns.waitFor({ state: 'detached' });

  // Sorting by latency on the server: the slowest of all 60 first, then ascending from the fastest.
  const latencies = () => table.locator('[data-column="latency"]').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-ms'))));
  const all = Array.from({ length: ROOTS }, (_, i) => latencyOf(i)).sort((a, b) => b - a);
  await table.getByRole('button', { name: /Latency/ }).click();
  await page.waitForURL(/sort=summary\.weave\.latency_ms&dir=desc|dir=desc.*sort=summary\.weave\.latency_ms/);
  await expect.poll(latencies, { timeout: 10_000 }).toEqual(all.slice(0, 50));
  await shot('traces-by-latency');
  await table.getByRole('button', { name: /Latency/ }).click();
  await page.waitForURL(/dir=asc/);
  await expect.poll(latencies, { timeout: 10_000 }).toEqual([...all].reverse().slice(0, 50));
  expect(await table.getByRole('columnheader', { name: /Latency/ }).getAttribute('aria-sort')).toBe('ascending');

  // Both pagers: Next above shows the last ten (still by latency), Previous below goes back.
  await top.getByRole('button', { name: 'Next' }).click();
  await page.waitForURL(/page=1/);
  await expect.poll(latencies, { timeout: 10_000 }).toEqual([...all].reverse().slice(50));
  await bottom.getByText(`Page 2 of 2 · traces 51–60 of ${ROOTS}`).waitFor();
  await expect(top.innerText()).resolves.toMatch(`Page 2 of 2 · 51–60 of ${ROOTS}`);
  expect(await top.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
  expect(await bottom.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
  await bottom.getByRole('button', { name: 'Previous' }).click();
  await page.waitForURL((url) => !url.searchParams.has('page'));
  await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(51);
  expect(await top.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);

  // Search: one input field, any case, in the database; six questions mention billing.
  const search = page.getByRole('search', { name: 'Search traces' });
  await search.getByRole('searchbox').fill('billing');
  await search.getByLabel('Search in').selectOption('inputs.question');
  await search.getByRole('button', { name: 'Search' }).click();
  await page.waitForURL(/q=billing/);
  await bottom.getByText('Page 1 of 1 · traces 1–6 of 6').waitFor();
  const inputs = await table.locator('[data-column="inputs"]').allInnerTexts();
  expect(inputs).toHaveLength(6);
  for (const text of inputs) expect(text).toMatch(/about Billing$/);
  // Still sorted by latency, ascending.
  const found = await latencies();
  expect(found).toEqual([...found].sort((a, b) => a - b));
  await shot('traces-search');
  await search.getByRole('button', { name: 'Clear search' }).click();
  await bottom.getByText(`Page 1 of 2 · traces 1–50 of ${ROOTS}`).waitFor();
  expect(page.url()).not.toMatch(/q=/);

  await checkUsageSorts(page, server);
}

/**
 * Tokens and Cost sort on the server like Latency: the first page holds the 50 values the API's
 * own calls give (as the columns read them), in order, calls without usage or price last either way.
 */
async function checkUsageSorts(page: Page, server: TestServer): Promise<void> {
  const table = page.getByRole('table', { name: 'Traces' });
  const calls = await server.client('alice').callsStreamQuery({ project_id: LIST_PROJECT, include_costs: true });
  expect(calls).toHaveLength(ROOTS);
  const column = (name: string, attribute: string) => () =>
    table.locator(`[data-column="${name}"]`).evaluateAll((els, a) => els.map((e) => e.getAttribute(a)), attribute);
  /** The attribute texts of the first page sorted by `value`, the calls without one last. */
  const expected = (value: (c: CallSchema) => number | undefined, direction: 'asc' | 'desc') => {
    const values = calls.map(value);
    const known = values.filter((v): v is number => v !== undefined).sort((a, b) => (direction === 'asc' ? a - b : b - a));
    return [...known.map(String), ...values.filter((v) => v === undefined).map(() => '')].slice(0, 50);
  };
  const noUsage = (c: CallSchema) => Object.keys((c.summary as { usage?: object }).usage ?? {}).length === 0;
  const tokens = (c: CallSchema) => (noUsage(c) ? undefined : tokensOf(c));

  for (const [label, name, attribute, field, value] of [
    ['Tokens', 'tokens', 'data-tokens', 'summary\\.weave\\.total_tokens', tokens],
    ['Cost', 'cost', 'data-cost', 'summary\\.weave\\.total_cost', costOf],
  ] as const) {
    const header = table.getByRole('button', { name: new RegExp(`^${label}`) });
    await header.click();
    await page.waitForURL(new RegExp(`sort=${field}&dir=desc|dir=desc.*sort=${field}`));
    // A call without usage sorts last and its row says 0 tokens (data-tokens="0").
    const want = (direction: 'asc' | 'desc') => expected(value, direction).map((t) => (name === 'tokens' && t === '' ? '0' : t));
    await expect.poll(column(name, attribute), { timeout: 10_000 }).toEqual(want('desc'));
    expect(await table.getByRole('columnheader', { name: new RegExp(`^${label}`) }).getAttribute('aria-sort')).toBe('descending');
    await header.click();
    await page.waitForURL(new RegExp(`sort=${field}&dir=asc|dir=asc.*sort=${field}`));
    await expect.poll(column(name, attribute), { timeout: 10_000 }).toEqual(want('asc'));
    // Kept in the URL: a reload shows the same order.
    await page.reload();
    await expect.poll(column(name, attribute), { timeout: 10_000 }).toEqual(want('asc'));
  }
}
