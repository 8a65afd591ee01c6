// Datasets from traces end to end (studio.test.ts runs it after the review walk, on its project):
// pick calls in the traces list, make a new dataset of them with their outputs as expected
// outputs, then add more calls, without outputs, as the dataset's next version; each row keeps its
// inputs in order and its source call's ref, and Studio shows the rows.
import type { Browser } from 'playwright-core';
import { expect } from 'vitest';
import type { TestServer } from '@weft/server/test/test-server.ts';
import { signedInPage } from './browser.ts';
import { REVIEW_PROJECT } from './send-to-review.ts';

export async function checkDatasetFromTraces(browser: Browser, server: TestServer, shots: string): Promise<void> {
  const api = server.client('alice');
  const page = await signedInPage(browser, server.url, server.aliceKey);
  const pick = async (rows: number[]) => {
    const table = page.getByRole('table', { name: 'Traces' });
    for (const n of rows) await table.getByRole('row').nth(n).getByRole('checkbox').check();
    return Promise.all(
      rows.map(async (n) => (await table.getByRole('row').nth(n).getByRole('link').getAttribute('href'))!.split('/').pop()!),
    );
  };
  const tableRows = async (version: number) => {
    const { objs } = await api.POST('/objs/query', { body: { project_id: REVIEW_PROJECT, filter: { object_ids: ['support-cases'] } } });
    const val = objs.find((o) => o.version_index === version)!.val as { rows: string };
    const digest = val.rows.split('/table/')[1]!;
    return (await api.POST('/table/query', { body: { project_id: REVIEW_PROJECT, digest } })).rows.map(
      (r) => r.val as Record<string, unknown>,
    );
  };
  try {
    await page.goto(`${server.url}/${REVIEW_PROJECT}/traces?thread=support`);
    await page.getByText('traces 1–30 of 30').waitFor();

    const first = await pick([1, 2, 3]);
    await page.getByRole('button', { name: 'Add to dataset…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add to dataset' });
    await dialog.getByLabel('Dataset', { exact: true }).selectOption({ label: 'New dataset…' });
    await dialog.getByLabel('Dataset name').fill('support-cases');
    await dialog.getByRole('button', { name: 'Add 3 calls' }).click();
    await dialog.getByRole('status').filter({ hasText: 'Added 3 rows to support-cases.' }).waitFor();
    // Oldest first; the inputs as recorded, the output as expected_output, the source call last.
    const v0 = await tableRows(0);
    expect(v0.map((r) => r.source_call_ref)).toEqual([...first].reverse().map((id) => `weave:///${REVIEW_PROJECT}/call/${id}`));
    expect(v0.map((r) => Object.keys(r))).toEqual(Array(3).fill(['question', 'expected_output', 'source_call_ref']));
    const n = Number(/Question (\d+)/.exec(String(v0[0]!.question))![1]);
    expect(v0[0]).toEqual({
      question: `Question ${n}`,
      expected_output: { answer: `Answer ${n}` },
      source_call_ref: `weave:///${REVIEW_PROJECT}/call/${first[2]}`,
    });

    await page.getByRole('button', { name: 'Clear selection' }).click();
    const more = await pick([4, 5]);
    await page.getByRole('button', { name: 'Add to dataset…' }).click();
    await dialog.getByLabel('Dataset', { exact: true }).selectOption({ label: 'support-cases' });
    await dialog.getByLabel("Each call's output as expected_output").uncheck();
    await dialog.getByRole('button', { name: 'Add 2 calls' }).click();
    await dialog.getByRole('status').filter({ hasText: 'Added 2 rows to support-cases.' }).waitFor();
    const v1 = await tableRows(1);
    expect(v1.slice(0, 3)).toEqual(v0);
    expect(v1.slice(3).map((r) => Object.keys(r))).toEqual(Array(2).fill(['question', 'source_call_ref']));
    expect(v1.slice(3).map((r) => r.source_call_ref)).toEqual([...more].reverse().map((id) => `weave:///${REVIEW_PROJECT}/call/${id}`));

    await dialog.getByRole('link', { name: 'support-cases' }).click();
    await page.getByRole('link', { name: /Open the rows of table/ }).click();
    await page.getByText('5 rows').waitFor();
    await page.screenshot({ path: `${shots}/dataset-from-traces.png`, fullPage: true });
  } finally {
    await page.close();
  }
}
