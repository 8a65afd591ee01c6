// The persistent header (issue 33): the project switcher opens the same section of another
// project, the project's links stay on pages of no project, and the theme menu overrides the
// system's scheme, kept across a reload and forgotten when set back to the system's.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

export async function checkHeader(page: Page, origin: string): Promise<void> {
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
}
