// The persistent header (issue 33): the project switcher opens the same section of another
// project, the project's links stay on pages of no project, and the theme menu overrides the
// system's scheme, kept across a reload and forgotten when set back to the system's; Cmd-K goes
// anywhere; list rows are reached and opened from the keyboard.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

export async function checkHeader(page: Page, origin: string, callId: string): Promise<void> {
  const header = page.getByRole('banner');
  const switcher = header.getByRole('combobox', { name: 'Project' });
  await page.goto(`${origin}/acme/support-bot/overview`);
  await expect.poll(() => switcher.inputValue()).toBe('acme/support-bot');
  await expect.poll(() => switcher.locator('option').allInnerTexts()).toEqual(expect.arrayContaining(['acme/support-bot', 'acme/demo']));

  // Another project, the same section.
  await switcher.selectOption('acme/demo');
  await page.waitForURL(`${origin}/acme/demo/overview`);
  await page.getByRole('img', { name: 'Feedback scores (mean) by time' }).waitFor();

  // A page of no project keeps the last project's links, and the switcher names it.
  await header.getByRole('link', { name: 'Router models' }).click();
  await page.waitForURL(`${origin}/router-models`);
  expect(await switcher.inputValue()).toBe('acme/demo');
  expect(await header.getByRole('link', { name: 'Traces' }).getAttribute('href')).toBe('/acme/demo/traces');
  await header.getByRole('link', { name: 'Threads' }).click();
  await page.waitForURL(`${origin}/acme/demo/threads`);

  // The theme: dark whatever the system says, after a reload too; back to the system's, nothing kept.
  await page.emulateMedia({ colorScheme: 'light' });
  const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  const light = await background();
  const theme = header.getByRole('combobox', { name: 'Theme' });
  await theme.selectOption('dark');
  await expect.poll(background).not.toBe(light);
  expect(await background()).toBe('rgb(17, 20, 24)');
  await page.reload();
  await page.getByRole('table', { name: 'Threads' }).waitFor();
  expect(await background()).toBe('rgb(17, 20, 24)');
  expect(await theme.inputValue()).toBe('dark');
  await theme.selectOption('system');
  await expect.poll(background).toBe(light);
  expect(await page.evaluate(() => [localStorage.getItem('weft.theme'), document.documentElement.dataset.theme])).toEqual([
    null,
    undefined,
  ]);
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await background()).toBe('rgb(17, 20, 24)');
  await page.emulateMedia({ colorScheme: 'light' });

  // Cmd-K (Ctrl-K here): a project, then an op of the current project, then a call by its id.
  const palette = page.getByRole('dialog', { name: 'Go to' });
  const box = palette.getByRole('combobox', { name: 'Go to' });
  const options = palette.getByRole('option');
  await page.keyboard.press('Control+k');
  await box.waitFor();
  expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Go to');
  await box.fill('support');
  await expect
    .poll(() => options.allInnerTexts())
    .toEqual(expect.arrayContaining(['Projects acme/support-bot', 'Datasets support-questions']));
  // Arrows move the choice; Enter opens it.
  const texts = await options.allInnerTexts();
  await box.press('ArrowDown');
  expect(await options.nth(1).getAttribute('aria-selected')).toBe('true');
  await box.press('Enter');
  await palette.waitFor({ state: 'hidden' });
  const second = texts[1]!;
  await page.waitForURL(second.startsWith('Projects') ? `${origin}/${second.split(' ')[1]}/traces` : /\/objects\//);
  // Escape closes it.
  await page.keyboard.press('Control+k');
  await box.waitFor();
  await page.keyboard.press('Escape');
  await palette.waitFor({ state: 'hidden' });
  // A call by its id, in the project of the page.
  await page.goto(`${origin}/acme/support-bot/traces`);
  await page.getByRole('table', { name: 'Traces' }).waitFor();
  await page.keyboard.press('Control+k');
  await box.fill(callId);
  await options.filter({ hasText: /^Calls/ }).waitFor();
  await box.press('Enter');
  await page.waitForURL(`${origin}/acme/support-bot/r/call/${callId}`);
  // List rows from the keyboard: arrows move between the rows' links, Enter opens one.
  await page.goto(`${origin}/acme/demo/threads`);
  const threads = page.getByRole('table', { name: 'Threads' });
  const first = threads.locator('tbody tr').nth(0).getByRole('link').first();
  await first.focus();
  await page.keyboard.press('ArrowDown');
  const next = threads.locator('tbody tr').nth(1).getByRole('link').first();
  await expect.poll(() => next.evaluate((el) => el === document.activeElement)).toBe(true);
  await page.keyboard.press('ArrowUp');
  await expect.poll(() => first.evaluate((el) => el === document.activeElement)).toBe(true);
  await page.keyboard.press('ArrowDown');
  const href = await next.getAttribute('href');
  await page.keyboard.press('Enter');
  await page.waitForURL(`${origin}${href}`);
  // Nothing found says so.
  await page.keyboard.press('Control+k');
  await box.fill('no-such-thing-anywhere');
  await palette.getByText('Nothing matches').waitFor();
  await page.keyboard.press('Escape');
}
