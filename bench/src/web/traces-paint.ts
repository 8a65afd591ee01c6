// The traces list's first paint: a project of root calls written through /call/upsert_batch, then
// fresh browser contexts (empty cache, as a first visit or a deep link) that are already signed in
// open /<entity>/<project>/traces. Figures per load, all from navigation start: Chrome's
// first-contentful-paint, the moment the table's first row is in the document (a
// MutationObserver installed before the app's scripts run), and DOMContentLoaded's end (the
// bundle fetched and run), which splits the paint into loading the app and rendering it. The median of LOADS loads, after one
// unmeasured load that warms the server's query path.
import type { Browser, Page } from 'playwright-core';
import { ENTITY } from '../servers/weft.ts';

export const TRACES_PROJECT = `${ENTITY}/web-traces`;
const LOADS = 5;
const ROW = 'table[aria-label="Traces"] tbody tr';
// Where Studio keeps the key of a signed-in tab (apps/web/src/session.tsx); a load that finds no
// key shows the sign-in screen, never a row, and so fails rather than measures the wrong page.
const STORAGE_KEY = 'weft.apiKey';

export interface PaintFigures {
  /** Per load, ms from navigation start. */
  fcp: number[];
  firstRow: number[];
  /** DOMContentLoaded's end: the app's script has been fetched and run (where a render starts). */
  scriptRun: number[];
  rowsShown: number;
}

/** `count` finished root calls, one batch, a minute apart. */
export async function seedTraces(url: string, headers: Record<string, string>, count: number): Promise<void> {
  const t0 = Date.UTC(2026, 10, 26, 8);
  const iso = (ms: number) => new Date(t0 + ms).toISOString();
  const id = (i: number) => `0197331d-0000-7000-8000-${String(i).padStart(12, '0')}`;
  const batch = Array.from({ length: count }, (_, i) => [
    {
      mode: 'start',
      req: {
        start: {
          project_id: TRACES_PROJECT,
          id: id(i),
          trace_id: id(100_000 + i),
          op_name: `weave:///${TRACES_PROJECT}/op/answer:v${i % 3}`,
          started_at: iso(i * 60_000),
          attributes: {},
          inputs: { question: `Question ${i}: what does the invoice of order ${1000 + i} cover?` },
        },
      },
    },
    {
      mode: 'end',
      req: {
        end: {
          project_id: TRACES_PROJECT,
          id: id(i),
          ended_at: iso(i * 60_000 + 200 + (i % 17) * 40),
          output: { answer: `Answer ${i}: the items shipped in November.` },
          summary: {},
        },
      },
    },
  ]).flat();
  const res = await fetch(`${url}/call/upsert_batch`, { method: 'POST', headers, body: JSON.stringify({ batch }) });
  if (res.status !== 200) throw new Error(`call/upsert_batch answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
}

/** Signs `page` (open on the sign-in screen) in with `key`, as a person does. */
export async function signIn(page: Page, key: string): Promise<void> {
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

export async function measureTracesPaint(browser: Browser, url: string, key: string): Promise<PaintFigures> {
  const figures: PaintFigures = { fcp: [], firstRow: [], scriptRun: [], rowsShown: 0 };
  for (let load = 0; load <= LOADS; load++) {
    const one = await loadOnce(browser, `${url}/${TRACES_PROJECT}/traces`, key);
    if (load === 0) continue;
    figures.fcp.push(one.fcp);
    figures.firstRow.push(one.firstRow);
    figures.scriptRun.push(one.scriptRun);
    figures.rowsShown = one.rows;
  }
  return figures;
}

async function loadOnce(
  browser: Browser,
  tracesUrl: string,
  key: string,
): Promise<{ fcp: number; firstRow: number; scriptRun: number; rows: number }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', timezoneId: 'UTC' });
  try {
    await context.addInitScript(
      ({ storageKey, apiKey, row }) => {
        sessionStorage.setItem(storageKey, apiKey);
        const seen = new MutationObserver(() => {
          if (!document.querySelector(row)) return;
          (window as unknown as { __firstRow: number }).__firstRow = performance.now();
          seen.disconnect();
        });
        seen.observe(document, { childList: true, subtree: true });
      },
      { storageKey: STORAGE_KEY, apiKey: key, row: ROW },
    );
    const page = await context.newPage();
    const errors: Error[] = [];
    page.on('pageerror', (err) => errors.push(err));
    await page.goto(tracesUrl);
    await page.waitForSelector(ROW, { timeout: 30_000 });
    const handle = await page.waitForFunction(() => {
      const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime;
      const firstRow = (window as unknown as { __firstRow?: number }).__firstRow;
      const scriptRun = (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)
        ?.domContentLoadedEventEnd;
      return fcp !== undefined && firstRow !== undefined && scriptRun ? { fcp, firstRow, scriptRun } : undefined;
    });
    const { fcp, firstRow, scriptRun } = (await handle.jsonValue())!;
    const rows = await page.locator(ROW).count();
    if (errors.length > 0) throw new Error(`the traces list threw: ${errors.map((e) => e.message).join('; ')}`);
    return { fcp, firstRow, scriptRun, rows };
  } finally {
    await context.close();
  }
}
