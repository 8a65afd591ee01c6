// Human review end to end, from the traces list (studio.test.ts runs it with its browser and
// server): filter the traces, select them, create a queue with a numeric and an enum scorer
// without leaving Studio, add the calls; select every call matching another filter into an
// existing queue; annotate 10 items with the keyboard alone in the review workspace (skipping,
// resuming and a second reviewer: review-workspace.ts); react and note on a call; the queue's
// results page shows the scores, its CSV and JSON Lines exports contain them; the traces list
// shows the score column and filters on it.
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestServer } from '@weft/server/test/test-server.ts';
import { signedInPage } from './browser.ts';
import { onItem } from './review-workspace.ts';

export const REVIEW_PROJECT = 'acme/review-flow';
const T0 = Date.parse('2026-11-26T08:00:00.000Z');
const id = (n: number) => `0197331c-0000-7000-9000-${String(n).padStart(12, '0')}`;

/** 30 root calls on thread `support` and 60 on `sales`, one a second, through call/upsert_batch. */
async function seedCalls(server: TestServer): Promise<void> {
  const api = server.client('alice');
  const op = `weave:///${REVIEW_PROJECT}/op/answer:Yz6f0ZI7cwVvXCzNXbLNXrSW0CCw5C8HJRg0yFbXm0w`;
  const batch = [];
  for (let n = 0; n < 90; n++) {
    const thread = n < 30 ? 'support' : 'sales';
    const at = (ms: number) => new Date(T0 + n * 1000 + ms).toISOString();
    batch.push(
      {
        mode: 'start' as const,
        req: {
          start: {
            project_id: REVIEW_PROJECT,
            id: id(n),
            trace_id: id(1000 + n),
            op_name: op,
            started_at: at(0),
            thread_id: thread,
            attributes: {},
            inputs: { question: `Question ${n}` },
          },
        },
      },
      {
        mode: 'end' as const,
        req: { end: { project_id: REVIEW_PROJECT, id: id(n), ended_at: at(400), output: { answer: `Answer ${n}` }, summary: {} } },
      },
    );
  }
  await api.POST('/call/upsert_batch', { body: { batch } });
}

/** What a reviewer gives the i-th item (0-based) of the support queue: quality and label. */
export const scoreOf = (i: number) => ({ quality: (i % 5) + 1, label: ['good', 'bad', 'unsure'][i % 3]! });

const SCORED = 10;

export async function checkSendToReview(browser: Browser, server: TestServer, shots: string): Promise<void> {
  await seedCalls(server);
  const api = server.client('alice');
  const sales = await api.POST('/annotation_queues', { body: { project_id: REVIEW_PROJECT, name: 'Sales review', scorer_refs: [] } });
  const page = await signedInPage(browser, server.url, server.aliceKey);
  try {
    await page.goto(`${server.url}/${REVIEW_PROJECT}/traces`);
    await filterThread(page, 'support');
    await page.getByText('traces 1–30 of 30').waitFor();

    // The page's 30, picked with the header's checkbox; a new queue with two scorers made here.
    await page.getByLabel('Select every trace on this page').check();
    await page.getByRole('region', { name: 'Selection' }).getByText('30 selected.').waitFor();
    await page.getByRole('button', { name: 'Add to queue…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add to annotation queue' });
    await dialog.getByLabel('Queue', { exact: true }).selectOption({ label: 'New queue…' });
    await dialog.getByLabel('Queue name').fill('Support review');
    await dialog.getByRole('button', { name: 'Add a scorer' }).click();
    await dialog.getByRole('button', { name: 'Add a scorer' }).click();
    const first = dialog.getByRole('group', { name: 'New scorer 1' });
    await first.getByLabel('Scorer name').fill('quality');
    const second = dialog.getByRole('group', { name: 'New scorer 2' });
    await second.getByLabel('Scorer name').fill('label');
    await second.getByLabel('Field').selectOption('enum');
    // A mistake is explained and nothing is created.
    await second.getByLabel('Options (one a line)').fill('good');
    await dialog.getByRole('button', { name: 'Create queue' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'label: give at least two options' }).waitFor();
    await second.getByLabel('Options (one a line)').fill('good\nbad\nunsure');
    await dialog.getByRole('button', { name: 'Create queue' }).click();
    await dialog.getByRole('status').filter({ hasText: 'Added 30 to Support review.' }).waitFor();
    await page.screenshot({ path: `${shots}/send-to-review.png`, fullPage: true });

    const queues = await api.POST('/annotation_queues/query', {
      body: { project_id: REVIEW_PROJECT, name: 'Support review' },
      parseAs: 'text',
    });
    const queue = JSON.parse(queues.trim()) as { id: string; scorer_refs: string[] };
    expect(queue.scorer_refs.map((r) => r.replace(/:[^:]+$/, ''))).toEqual([
      `weave:///${REVIEW_PROJECT}/object/quality`,
      `weave:///${REVIEW_PROJECT}/object/label`,
    ]);
    const specs = await api.POST('/refs/read_batch', { body: { refs: queue.scorer_refs } });
    expect(specs.vals.map((v) => (v as { field_schema: unknown }).field_schema)).toEqual([
      { type: 'integer', minimum: 1, maximum: 5 },
      { type: 'string', enum: ['good', 'bad', 'unsure'] },
    ]);
    const items = await api.POST('/annotation_queues/{queue_id}/items/query', {
      params: { path: { queue_id: queue.id } },
      body: { project_id: REVIEW_PROJECT },
    });
    expect(items.items.map((i) => i.call_id).sort()).toEqual(Array.from({ length: 30 }, (_, n) => id(n)).sort());

    // Every call matching another filter (60, more than a page) into an existing queue.
    await filterThread(page, 'sales');
    await page.getByText('traces 1–50 of 60').waitFor();
    await page.getByLabel('Select every trace on this page').check();
    await page.getByRole('button', { name: 'Select all 60 matching the filter' }).click();
    await page.getByText('All 60 traces matching the filter are selected.').waitFor();
    await page.getByRole('button', { name: 'Add to queue…' }).click();
    await dialog.getByLabel('Queue', { exact: true }).selectOption({ label: 'Sales review' });
    await dialog.getByRole('button', { name: 'Add 60 calls' }).click();
    await dialog.getByRole('status').filter({ hasText: 'Added 60 to Sales review.' }).waitFor();
    const stats = await api.POST('/annotation_queues/stats', { body: { project_id: REVIEW_PROJECT, queue_ids: [sales.id, queue.id] } });
    expect(stats.stats.map((s) => s.total_items)).toEqual([60, 30]);

    await annotateByKeyboard(page, server, queue.id);
    await checkResults(page, server, queue.id, SCORED, shots);
    await checkCallFeedback(page, server, queue.id);
    await checkScoreFilter(page, server, SCORED);
  } finally {
    await page.close();
  }
}

/** From the queue's page into the workspace; each item: a quality digit, Tab, a label's place, Enter. */
async function annotateByKeyboard(page: Page, server: TestServer, queueId: string): Promise<void> {
  await page.goto(`${server.url}/${REVIEW_PROJECT}/queues/${queueId}`);
  await page.getByRole('link', { name: 'Review', exact: true }).click();
  for (let i = 0; i < SCORED; i++) {
    await onItem(page, i + 1);
    const { quality, label } = scoreOf(i);
    await page.keyboard.press(String(quality));
    await page.keyboard.press('Tab');
    await page.keyboard.press(String(['good', 'bad', 'unsure'].indexOf(label) + 1));
    await page.keyboard.press('Enter');
  }
  await onItem(page, SCORED + 1);
  await page
    .getByRole('status')
    .filter({ hasText: `${SCORED} of 30 done` })
    .waitFor();
}

async function filterThread(page: Page, thread: string): Promise<void> {
  await page.getByLabel('Thread').fill(thread);
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.waitForURL(new RegExp(`thread=${thread}`));
}

async function checkResults(page: Page, server: TestServer, queueId: string, scored: number, shots: string): Promise<void> {
  await page.goto(`${server.url}/${REVIEW_PROJECT}/queues/${queueId}`);
  await page.getByRole('heading', { name: 'Support review', level: 1 }).waitFor();
  await page
    .getByRole('status')
    .filter({ hasText: `${scored} of 30 done` })
    .waitFor();
  const table = page.getByRole('table', { name: 'Queue items' });
  await table
    .locator('td[data-state="completed"]')
    .nth(scored - 1)
    .waitFor();
  // Every score shows, in queue order: the i-th item has scoreOf(i).
  const quality = await table.locator('td[data-score="quality"]').allInnerTexts();
  const label = await table.locator('td[data-score="label"]').allInnerTexts();
  expect(quality.slice(0, scored)).toEqual(Array.from({ length: scored }, (_, i) => String(scoreOf(i).quality)));
  expect(label.slice(0, scored)).toEqual(Array.from({ length: scored }, (_, i) => scoreOf(i).label));
  expect(quality.slice(scored).every((q) => q === '')).toBe(true);
  // The summary (feedback/stats over the queue's life) agrees with the scores given.
  const given = Array.from({ length: scored }, (_, i) => scoreOf(i).quality);
  const mean = (given.reduce((a, b) => a + b, 0) / scored).toFixed(2);
  await page
    .locator('dd[data-summary="quality"]')
    .filter({ hasText: `mean ${mean}, lowest ${Math.min(...given)}, highest ${Math.max(...given)} (${scored} scores)` })
    .waitFor();
  await page
    .locator('dd[data-summary="label"]')
    .filter({ hasText: `${scored} labels given` })
    .waitFor();
  await page.screenshot({ path: `${shots}/queue-results.png`, fullPage: true });

  const exported = async (button: string) => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
    return { name: download.suggestedFilename(), text: readFileSync(await download.path(), 'utf8') };
  };
  const csv = await exported('Export CSV');
  expect(csv.name).toBe('Support-review-results.csv');
  const lines = csv.text.trimEnd().split('\r\n');
  expect(lines[0]).toBe('item_id,position,call_id,call_trace_id,call_op_name,annotation_state,annotator,annotated_at,quality,label');
  expect(lines).toHaveLength(31);
  for (let i = 0; i < scored; i++)
    expect(lines[i + 1]).toMatch(new RegExp(`,completed,alice,[^,]+,${scoreOf(i).quality},${scoreOf(i).label}$`));
  const jsonl = await exported('Export JSON Lines');
  const rows = jsonl.text
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as { position: number; scores: Record<string, unknown> });
  expect(rows).toHaveLength(30);
  expect(rows.slice(0, scored).map((r) => r.scores)).toEqual(Array.from({ length: scored }, (_, i) => scoreOf(i)));
}

async function checkCallFeedback(page: Page, server: TestServer, queueId: string): Promise<void> {
  // The first item's call, which the reviewer scored scoreOf(0).
  const { items } = await server.client('alice').POST('/annotation_queues/{queue_id}/items/query', {
    params: { path: { queue_id: queueId } },
    body: { project_id: REVIEW_PROJECT, limit: 1 },
  });
  await page.goto(`${server.url}/${REVIEW_PROJECT}/r/call/${items[0]!.call_id}`);
  const feedback = page.getByRole('region', { name: 'Feedback' });
  await feedback.getByRole('button', { name: /👍/ }).click();
  await feedback.getByRole('button', { name: '👍 1' }).and(page.locator('[aria-pressed="true"]')).waitFor();
  await feedback.getByRole('textbox', { name: 'Note' }).fill('Cites the wrong plan.');
  await feedback.getByRole('button', { name: 'Add note' }).click();
  const rows = feedback.getByRole('table', { name: 'Feedback rows' });
  await rows.getByRole('row', { name: /Note\s+Cites the wrong plan\.\s+alice/ }).waitFor();
  await rows.getByRole('row', { name: /Reaction\s+👍\s+alice/ }).waitFor();
  // The queue's scores are listed too, with their reviewer.
  await rows.getByRole('row', { name: new RegExp(`quality\\s+${scoreOf(0).quality}\\s+alice`) }).waitFor();
  // A second click takes the reaction back.
  await feedback.getByRole('button', { name: '👍 1' }).click();
  await rows.getByRole('row', { name: /Reaction/ }).waitFor({ state: 'detached' });
}

async function checkScoreFilter(page: Page, server: TestServer, scored: number): Promise<void> {
  await page.goto(`${server.url}/${REVIEW_PROJECT}/traces?thread=support`);
  await page.getByLabel('Score', { exact: true }).selectOption('quality');
  await page.getByLabel('Comparison').selectOption('>=');
  await page.getByLabel('Score value').fill('4');
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.waitForURL(/score=quality%3E%3D4/);
  const expected = Array.from({ length: scored }, (_, i) => scoreOf(i).quality).filter((q) => q >= 4).length;
  await page.getByText(new RegExp(`traces 1–${expected} of ${expected}$`)).waitFor();
  const shown = await page.getByRole('table', { name: 'Traces' }).locator('td[data-score="quality"]').allInnerTexts();
  expect(shown.map(Number).every((q) => q >= 4)).toBe(true);
  expect(shown).toHaveLength(expected);
}
