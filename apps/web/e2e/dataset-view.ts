// The dataset viewer beyond scrolling and sorting (studio.test.ts runs it on its page, on the rows
// of the seed's support-questions v1, "Question <i>" with difficulty (i × 7) mod 10): the title
// and way back, columns in written order, search narrowing the rows, jump to a row, a row whole in the drawer, and a long
// row expanded in place (a dataset of its own).
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestServer } from '@weft/server/test/test-server.ts';

export async function checkDatasetView(page: Page, server: TestServer, projectId: string, shots: string): Promise<void> {
  // Titled by the dataset's object and version, with the way back to it and to the objects list.
  await page.getByRole('heading', { name: /^support-questions v1/ }).waitFor();
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
  expect(await crumbs.getByRole('link', { name: 'support-questions v1' }).getAttribute('href')).toMatch(
    new RegExp(`^/${projectId}/objects/support-questions\\?v=[A-Za-z0-9_-]{43}$`),
  );
  expect(await crumbs.getByRole('link', { name: `Objects of ${projectId}` }).getAttribute('href')).toBe(`/${projectId}/objects`);

  // Columns in the order the rows' keys were written: question, then expected (in PostgreSQL
  // jsonb's key order, expected would come first).
  const heads = await page.getByRole('table', { name: 'Rows' }).getByRole('columnheader').allInnerTexts();
  expect(heads.map((h) => h.replace(/[▲▼]/g, '').trim())).toEqual(['#', 'question', 'expected.difficulty']);

  // Search narrows the rows to those containing the text: Question 432 and 4320–4329.
  const rows = page.getByRole('table', { name: 'Rows' });
  await page.getByLabel('Search rows').fill('question 432');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.waitForURL(/q=question\+432/);
  await page
    .getByRole('status')
    .filter({ hasText: /^11 rows contain “question 432”, in 5,000 of 5,000 read\.$/ })
    .waitFor();
  await expect.poll(() => rows.getByRole('row').count(), { timeout: 10_000 }).toBe(12);
  const questions = await rows.getByRole('row').evaluateAll((els) => els.slice(1).map((e) => (e as HTMLElement).innerText));
  for (const text of questions) expect(text).toMatch(/^\d+\s+Question 432\d?\s+\d$/);
  await page.getByRole('button', { name: 'Clear' }).click();
  await page.waitForURL((url) => !url.searchParams.has('q'));
  await expect.poll(() => page.getByLabel('Search rows').inputValue()).toBe('');

  // Jump to row 2500: in view, marked, and its own (search and sort cleared first: the search box
  // empties with them).
  await page.getByLabel('Search rows').fill('question 25');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.waitForURL(/q=question\+25/);
  await page.getByLabel('Jump to row').fill('2500');
  await page.getByRole('button', { name: 'Go' }).click();
  const jumped = rows.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Question 2500', exact: true }) });
  await jumped.waitFor();
  expect(await jumped.isVisible()).toBe(true);
  expect(await jumped.getByRole('cell').first().innerText()).toBe('2500');
  expect(page.url()).not.toMatch(/sort=|q=/);
  expect(await page.getByLabel('Search rows').inputValue()).toBe('');

  // The row's number opens it whole in the drawer; Escape closes it.
  await jumped.getByRole('button', { name: 'Open row 2500' }).click();
  const drawer = page.getByRole('dialog', { name: 'Row 2500' });
  await drawer.getByText('Question 2500', { exact: true }).waitFor();
  const whole = await drawer.innerText();
  expect(whole).toMatch(/^question\s+Question 2500$/m);
  expect(whole).toMatch(/^expected\s[\s\S]*difficulty: 0$/m);
  await page.screenshot({ path: `${shots}/dataset-row.png` });

  await page.keyboard.press('Escape');
  await drawer.waitFor({ state: 'detached' });
  expect(page.url()).not.toMatch(/row=/);

  // A long text cell: cut to one line, expanded in place on asking.
  const api = server.client('alice');
  const long = `${'A long answer that goes on. '.repeat(20)}The end.`;
  const { digest } = await api.POST('/table/create', {
    body: { table: { project_id: projectId, rows: [{ answer: long }, { answer: 'short' }] as unknown as Array<Record<string, never>> } },
  });
  await page.goto(`${server.url}/${projectId}/tables/${digest}`);
  const longRow = rows.getByRole('row').nth(1);
  await longRow.getByRole('button', { name: 'Expand row 0' }).waitFor();
  const before = (await longRow.boundingBox())!.height;
  await longRow.getByRole('button', { name: 'Expand row 0' }).click();
  await longRow.getByRole('button', { name: 'Collapse row 0' }).waitFor();
  await expect.poll(async () => (await longRow.boundingBox())!.height, { timeout: 10_000 }).toBeGreaterThan(before * 2);
  expect(await longRow.getByRole('cell').nth(1).innerText()).toBe(long);
  await page.screenshot({ path: `${shots}/dataset-expanded.png` });
  // A row with nothing long offers nothing to expand.
  expect(
    await rows
      .getByRole('row')
      .nth(2)
      .getByRole('button', { name: /Expand/ })
      .count(),
  ).toBe(0);
}
