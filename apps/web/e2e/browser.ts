// Debian's chromium driven by playwright-core (never a downloaded browser). Without chromium the
// suite is skipped loudly, and fails under WEFT_REQUIRE_BROWSER=1 (CI, which installs it).
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const browserAvailable = existsSync(CHROMIUM);

if (!browserAvailable) {
  const message = `chromium not found at ${CHROMIUM} (apt-get install -y chromium)`;
  if (process.env.WEFT_REQUIRE_BROWSER === '1') throw new Error(`${message}: required by WEFT_REQUIRE_BROWSER=1`);
  console.warn(`${message}: browser tests SKIPPED`);
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    // Headless, with a fresh temporary profile: playwright's own defaults for launch().
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/**
 * A new page of the app signed in with `key` (the header's Sign out shows it is in), 1280×900 in
 * UTC and en-US; any script error on it fails the test that opened it.
 */
export async function signedInPage(browser: Browser, url: string, key: string, width = 1280): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 }, timezoneId: 'UTC', locale: 'en-US', acceptDownloads: true });
  page.on('pageerror', (err) => {
    throw err;
  });
  await page.goto(`${url}/`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  return page;
}
