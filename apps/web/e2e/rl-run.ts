// An RL run's page end to end (studio.test.ts runs it with its server and seed, on a page of its own): the
// charts have legible axes with titles and a readout that follows the pointer and the keyboard;
// a step's trajectories come a page at a time, sorted by reward on request, each collapsed to a
// line until opened; the checkpoints the trainer registered are a table.
import type { Browser, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestServer } from '@weft/server/test/test-server.ts';
import { signedInPage } from './browser.ts';
import { STEP4_REWARDS, type Seeded } from './seed.ts';

const asShown = (v: number) => String(Number(v.toPrecision(3)));

export async function checkRlRun(browser: Browser, server: TestServer, data: Seeded, shots: string): Promise<void> {
  const page = await signedInPage(browser, server.url, server.aliceKey);
  try {
    await checkOn(page, server, data, (name) => page.screenshot({ path: `${shots}/${name}.png`, fullPage: true }));
  } finally {
    await page.close();
  }
}

async function checkOn(page: Page, server: TestServer, data: Seeded, shot: (name: string) => Promise<unknown>): Promise<void> {
  await page.goto(`${server.url}/acme/support-bot/runs`);
  await page.getByRole('link', { name: 'agent-001' }).click();
  const reward = page.getByRole('img', { name: 'reward by step' });
  await reward.waitFor();
  const stepsOf = (split: string) =>
    reward.locator(`[data-series="${split}"] circle`).evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-step'))));
  expect(await stepsOf('train')).toEqual([0, 1, 2, 3, 4]);
  expect(await stepsOf('val')).toEqual([0, 2, 4]);

  // Axes: titled, and tick labels as large on the page as body text's small print.
  expect(await reward.locator('.axis-title').allTextContents()).toEqual(['Step', 'reward']);
  const tickHeights = await reward.locator('text.axis').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));
  expect(tickHeights.length).toBeGreaterThan(4);
  expect(Math.min(...tickHeights)).toBeGreaterThanOrEqual(11);

  // The readout: the pointer near step 3 shows train's value there (val logged none at 3).
  const figure = page.getByRole('figure', { name: 'reward' });
  const readout = figure.getByRole('status');
  expect(await readout.isVisible()).toBe(false);
  const at = async (split: string, step: number) => {
    const point = reward.locator(`[data-series="${split}"] circle[data-step="${step}"]`);
    const box = (await point.boundingBox())!;
    return { x: box.x + box.width / 2, y: box.y + box.height / 2, value: Number(await point.getAttribute('data-value')) };
  };
  const train3 = await at('train', 3);
  await page.mouse.move(train3.x + 6, train3.y - 30);
  await expect.poll(() => readout.innerText()).toMatch(new RegExp(`^Step 3\\s+train ${asShown(train3.value)} ± \\S+$`));
  const [train4, val4] = [await at('train', 4), await at('val', 4)];
  await page.mouse.move(train4.x - 4, train4.y + 20);
  await expect.poll(() => readout.innerText()).toMatch(/^Step 4\s+train .+\s+val .+$/);
  expect(await readout.innerText()).toContain(`val ${asShown(val4.value)}`);
  await shot('run');
  await page.mouse.move(0, 0);
  await expect.poll(() => readout.isVisible()).toBe(false);

  // The keyboard: ← from the last step reaches step 3, Enter lists its trajectories.
  await reward.focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => readout.innerText()).toMatch(/^Step 3\s/);
  await page.keyboard.press('Enter');
  await page.waitForURL(/step=3&split=train/);
  const trajectories = page.getByRole('region', { name: 'Trajectories of the step' });
  await trajectories.getByRole('heading', { name: 'Step 3, train' }).waitFor();
  const item = trajectories.getByRole('listitem').filter({ hasText: 'Reward 0.5' });
  // Collapsed, one line: the reward and the model's last words; open, the conversation.
  expect(await item.innerText()).toMatch(/^Reward 0\.5 2 messages · assistant: Done \(reward 0\.5\)\.$/);
  expect(await item.getByRole('list', { name: 'Conversation' }).isVisible()).toBe(false);
  await item.getByText('Reward 0.5', { exact: true }).click();
  await item.getByRole('list', { name: 'Conversation' }).getByText('Change my flight to Friday.').waitFor();
  await expect.poll(() => trajectories.getByRole('navigation').count()).toBe(0); // one page: no pager

  // Step 4 of train: 2 + STEP4_EXTRA trajectories, 20 a page.
  const all = [4 / 10, 4 / 10 + 0.2, ...STEP4_REWARDS]; // as seed.ts logs them
  await reward.locator('[data-series="train"] circle[data-step="4"]').click();
  await trajectories.getByRole('heading', { name: 'Step 4, train' }).waitFor();
  await trajectories.getByText(`${all.length} trajectories`).waitFor();
  const pager = trajectories.getByRole('navigation', { name: 'Trajectory pages (bottom)' });
  await pager.getByText('Page 1 of 2').waitFor();
  const rewards = (list: Locator) => list.locator('.reward').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-reward'))));
  expect(await rewards(trajectories)).toEqual(all.slice(0, 20));
  // Collapsed, a page of trajectories stays short: the page ends within a couple of screens.
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(2_400);
  await pager.getByRole('button', { name: 'Next' }).click();
  await pager.getByText('Page 2 of 2').waitFor();
  await page.waitForURL(/page=2/);
  expect(await rewards(trajectories)).toEqual(all.slice(20));
  expect(await pager.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);

  // Sorted by reward, highest first: back to page 1, and the pages read in order.
  await trajectories.getByLabel('Order').selectOption({ label: 'Reward, highest first' });
  await page.waitForURL((u) => u.searchParams.get('order') === 'reward-desc' && !u.searchParams.has('page'));
  await pager.getByText('Page 1 of 2').waitFor();
  const desc = [...all].sort((a, b) => b - a);
  await expect.poll(() => rewards(trajectories)).toEqual(desc.slice(0, 20));
  await pager.getByRole('button', { name: 'Next' }).click();
  await expect.poll(() => rewards(trajectories)).toEqual(desc.slice(20));
  await trajectories.getByLabel('Order').selectOption({ label: 'Reward, lowest first' });
  await expect.poll(() => rewards(trajectories)).toEqual([...desc].reverse().slice(0, 20));
  // The visible text says the same as the attributes read above.
  const shownFirst = await trajectories.locator('.reward').first().innerText();
  expect(shownFirst).toBe(`Reward ${Math.min(...all)}`);
  await shot('run-trajectories');

  // The checkpoints: one row per registered step, with the reward its step logged.
  const checkpoints = await server.client({ scheme: 'bearer', apiKey: server.aliceKey }).GET('/v1/preview/models/{model_id}/checkpoints', {
    params: { path: { model_id: data.modelId } },
  });
  const table = page.getByRole('table', { name: 'Checkpoints' });
  const headers = await table.getByRole('columnheader').allInnerTexts();
  expect(headers.slice(0, 3)).toEqual(['Step', 'Saved', 'train/reward']);
  const rows = await table
    .locator('tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => (td as HTMLElement).innerText)));
  expect(rows.map((r) => r[0])).toEqual(checkpoints.data.map((c) => String(c.step)));
  expect(rows.map((r) => r[0])).toEqual(['1', '2', '3', '4']);
  expect(rows.map((r) => Number(r[2]))).toEqual(checkpoints.data.map((c) => Number(c.metrics['train/reward']!.toPrecision(4))));
}
