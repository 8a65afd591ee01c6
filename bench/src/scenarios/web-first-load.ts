// Scenario 10 (issue 33): what Weft Studio costs a browser. Built fresh from apps/web and served by
// a real Weft (which sends the build's precompressed .br/.gz files) on a fresh embedded SQLite
// database, opened in Debian's chromium:
// - the first visit to `/` (empty cache): the bytes of every response over the wire, and the
//   JavaScript among them. Target: at most 150 kB in all.
// - the traces list of a project of TRACE_CALLS calls, opened signed in by fresh contexts: first
//   contentful paint and the first row of the table, medians. Measured, without a target: they
//   are absolute times of the browser's main thread, which follow the shared machine's load
//   rather than Weft (the bench holds its targets to ratios for that reason).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { phase, say } from '../progress.ts';
import { fmt, type ScenarioResult } from '../report/results.ts';
import { startWeft } from '../servers/weft.ts';
import { launchChromium } from '../web/chromium.ts';
import { measureTracesPaint, seedTraces, signIn, TRACES_PROJECT } from '../web/traces-paint.ts';
import { firstLoad } from '../web/wire-bytes.ts';
import type { RunContext } from './context.ts';

const WEB = fileURLToPath(new URL('../../../apps/web', import.meta.url));
const TRACE_CALLS = 200;
/** kB here are 1,000 bytes. */
const kb = (n: number) => n / 1000;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

export async function webFirstLoadScenario(ctx: RunContext): Promise<ScenarioResult> {
  await phase('building apps/web (vite build)', () =>
    Promise.resolve(execFileSync('pnpm', ['exec', 'vite', 'build', '--logLevel', 'warn'], { cwd: WEB, stdio: 'inherit' })),
  );
  const dist = join(WEB, 'dist');
  const built = builtAssets(dist);
  const browser = await launchChromium();
  const weft = await startWeft(`sqlite:${join(ctx.runDir, 'web-first-load.sqlite')}`, ctx.runDir, ctx.creds, { WEB_DIR: dist });
  try {
    say('  first visit to / (empty cache)');
    const load = await firstLoad(browser, weft.url);
    await signIn(load.page, ctx.creds.key);
    await load.page.context().close();
    await seedTraces(weft.url, ctx.creds.headers, TRACE_CALLS);
    say(`  traces list of ${TRACE_CALLS} calls, fresh contexts`);
    const paint = await measureTracesPaint(browser, weft.url, ctx.creds.key);
    const fcp = median(paint.fcp);
    const firstRow = median(paint.firstRow);
    const encodings = [...new Set(load.responses.filter((r) => r.type === 'Script' || r.type === 'Stylesheet').map((r) => r.encoding))];
    const spread = (xs: number[]) => `${fmt.ms(Math.min(...xs))}–${fmt.ms(Math.max(...xs))}`;
    return {
      id: 'web-first-load',
      title: '10. Weft Studio first load over the wire; traces list first paint',
      lines: [
        {
          measure: 'First visit to /, all responses',
          value: `${kb(load.total).toFixed(1)} kB`,
          baseline: '',
          ratio: null,
          target: { op: '<=', value: 150 },
          absolute: { value: kb(load.total), unit: 'kB' },
        },
        { measure: 'of which JavaScript', value: `${kb(load.js).toFixed(1)} kB`, baseline: '', ratio: null },
        { measure: 'of which CSS', value: `${kb(load.css).toFixed(1)} kB`, baseline: '', ratio: null },
        {
          measure: `Traces list (${TRACE_CALLS} calls): first contentful paint, median`,
          value: fmt.ms(fcp),
          baseline: '',
          ratio: null,
        },
        {
          measure: `Traces list (${TRACE_CALLS} calls): first row shown, median`,
          value: fmt.ms(firstRow),
          baseline: '',
          ratio: null,
        },
      ],
      notes: [
        `Over the wire: Chrome's Network.loadingFinished encodedDataLength of every response of a first visit to \`/\` in a new context (empty cache), until the network is idle: response headers plus the body as sent; kB = 1,000 bytes. Scripts and styles came with Content-Encoding ${encodings.join(', ')}. Responses: ${load.responses.map((r) => `${new URL(r.url).pathname} (${r.type}, ${r.encoding || 'identity'}) ${r.bytes} B`).join(', ')}.`,
        `Traces list: ${TRACE_CALLS} root calls, opened at \`/${TRACES_PROJECT}/traces\` by ${paint.fcp.length} new contexts (empty cache) already signed in, after one unmeasured load; ${paint.rowsShown} rows shown. From navigation start: first-contentful-paint ${spread(paint.fcp)}, first row in the document (MutationObserver) ${spread(paint.firstRow)}; the bundle fetched and run (DOMContentLoaded) at a median of ${fmt.ms(median(paint.scriptRun))}. Weft on its own fresh SQLite file, whichever database the run is on.`,
        `Built files index.html references: ${built.map((b) => `${b.ref} ${kb(b.raw).toFixed(0)} kB (${kb(b.br).toFixed(1)} kB br, ${kb(b.gzip).toFixed(1)} kB gzip)`).join(', ')}.`,
      ],
      raw: { responses: load.responses, total: load.total, js: load.js, css: load.css, built, paint },
    };
  } finally {
    await weft.stop();
    await browser.close();
  }
}

/** The scripts and styles index.html references, raw and as their precompressed files. */
function builtAssets(dist: string) {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const refs = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]!);
  const size = (path: string) => {
    if (!existsSync(path)) throw new Error(`the build wrote no ${path} (apps/web/dev/precompress.ts)`);
    return statSync(path).size;
  };
  return refs.map((ref) => {
    const path = join(dist, ref);
    return { ref, raw: size(path), br: size(`${path}.br`), gzip: size(`${path}.gz`) };
  });
}
