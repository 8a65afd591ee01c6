// Human review in Studio end to end, on both databases: send filtered traces to a new queue with
// its scorers, annotate by keyboard, read, export and filter by the scores (send-to-review.ts);
// the workspace's resume and two reviewers (review-workspace.ts); datasets from traces
// (dataset-from-traces.ts). The built app, a real server, Debian's chromium.
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { describeEachDatabase } from '@weft/server/test/test-server.ts';
import { browserAvailable, launchChromium } from './browser.ts';
import { checkDatasetFromTraces } from './dataset-from-traces.ts';
import { checkReviewWorkspace } from './review-workspace.ts';
import { checkSendToReview } from './send-to-review.ts';

const WEB_DIR = fileURLToPath(new URL('../dist', import.meta.url));
const SHOTS = fileURLToPath(new URL('./screenshots', import.meta.url));

describe.skipIf(!browserAvailable)('human review in Weft Studio', () => {
  let browser: Browser;
  beforeAll(async () => {
    if (!existsSync(`${WEB_DIR}/index.html`)) throw new Error(`${WEB_DIR} is not built: run pnpm --filter @weft/web build`);
    mkdirSync(SHOTS, { recursive: true });
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  describeEachDatabase(
    'in chromium',
    (getServer) => {
      it('sends filtered traces to a new queue, reviews them by keyboard, shows and exports the scores, and filters the traces by them', async () => {
        await checkSendToReview(browser, getServer(), SHOTS);
      });

      it('makes a dataset of picked traces, then its next version of more (after the review walk, on its project)', async () => {
        await checkDatasetFromTraces(browser, getServer(), SHOTS);
      });

      it('reviews a queue item by item with the keyboard, resumes where it stopped, and keeps two reviewers apart', async () => {
        await checkReviewWorkspace(browser, getServer(), SHOTS);
      });
    },
    { WEB_DIR, VALIDATE_RESPONSES: '1' },
  );
});
