// Debian's chromium driven by playwright-core (never a downloaded browser). Without chromium the
// suite is skipped loudly, and fails under WEFT_REQUIRE_BROWSER=1 (CI, which installs it).
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

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
