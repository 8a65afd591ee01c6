// What a first visit to `/` costs over the wire: a new browser context (empty cache, no cookies)
// opens the page and waits until the network is idle, and every response is counted as Chrome's
// DevTools counts it: Network.loadingFinished's encodedDataLength, the bytes received for the
// response (its headers and its body as sent, i.e. compressed). Scripts and styles must arrive
// compressed (Content-Encoding br or gzip), or the figure would flatter nothing and hide a
// misconfigured server.
import type { Browser, Page } from 'playwright-core';

export interface WireResponse {
  url: string;
  /** Chrome's resource type: Document, Script, Stylesheet, Fetch, … */
  type: string;
  status: number;
  encoding: string;
  /** Headers plus the body as sent. */
  bytes: number;
}

export interface FirstLoad {
  responses: WireResponse[];
  total: number;
  js: number;
  css: number;
  /** The page, still open on `/` (the sign-in screen), for the caller to go on with. */
  page: Page;
}

const COMPRESSED = new Set(['br', 'gzip']);

export async function firstLoad(browser: Browser, url: string): Promise<FirstLoad> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', timezoneId: 'UTC' });
  const page = await context.newPage();
  const errors: Error[] = [];
  page.on('pageerror', (err) => errors.push(err));
  const cdp = await context.newCDPSession(page);
  const seen = new Map<string, Omit<WireResponse, 'bytes'>>();
  const finished = new Map<string, number>();
  const failed: string[] = [];
  cdp.on('Network.responseReceived', (e) => {
    const headers = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
    seen.set(e.requestId, { url: e.response.url, type: e.type, status: e.response.status, encoding: headers['content-encoding'] ?? '' });
  });
  cdp.on('Network.loadingFinished', (e) => finished.set(e.requestId, e.encodedDataLength));
  cdp.on('Network.loadingFailed', (e) => failed.push(`${e.requestId}: ${e.errorText}`));
  await cdp.send('Network.enable');
  await cdp.send('Network.clearBrowserCache');
  await page.goto(`${url}/`, { waitUntil: 'networkidle' });
  if (errors.length > 0) throw new Error(`first load of / threw: ${errors.map((e) => e.message).join('; ')}`);
  if (failed.length > 0) throw new Error(`first load of / had failed requests: ${failed.join(', ')}`);

  const responses: WireResponse[] = [...seen].map(([id, r]) => {
    const bytes = finished.get(id);
    if (bytes === undefined) throw new Error(`${r.url} had not finished loading when the network went idle`);
    return { ...r, bytes };
  });
  for (const r of responses) {
    if (r.status >= 400) throw new Error(`first load of /: ${r.url} answered ${r.status}`);
    if ((r.type === 'Script' || r.type === 'Stylesheet') && !COMPRESSED.has(r.encoding))
      throw new Error(`first load of /: ${r.url} came with Content-Encoding "${r.encoding}", expected br or gzip`);
  }
  if (!responses.some((r) => r.type === 'Script')) throw new Error('first load of / fetched no script');
  const sum = (type?: string) => responses.filter((r) => !type || r.type === type).reduce((n, r) => n + r.bytes, 0);
  await cdp.detach();
  return { responses, total: sum(), js: sum('Script'), css: sum('Stylesheet'), page };
}
