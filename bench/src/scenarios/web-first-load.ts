// Scenario 10: what a browser downloads to open Weft Studio the first time: the scripts and
// styles index.html references, gzipped as a server or proxy would send them (zlib's default
// level), built fresh from apps/web. Target: at most 300 kB of gzipped JavaScript.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { phase } from '../progress.ts';
import type { ScenarioResult } from '../report/results.ts';

const WEB = fileURLToPath(new URL('../../../apps/web', import.meta.url));

export async function webFirstLoadScenario(): Promise<ScenarioResult> {
  await phase('building apps/web (vite build)', () =>
    Promise.resolve(execFileSync('pnpm', ['exec', 'vite', 'build', '--logLevel', 'warn'], { cwd: WEB, stdio: 'inherit' })),
  );
  const dist = join(WEB, 'dist');
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const refs = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]!);
  const sizes = refs.map((ref) => {
    const bytes = readFileSync(join(dist, ref));
    return { ref, raw: bytes.length, gzip: gzipSync(bytes).length };
  });
  const kb = (n: number) => n / 1024;
  const js = sizes.filter((s) => s.ref.endsWith('.js')).reduce((n, s) => n + s.gzip, 0);
  const css = sizes.filter((s) => s.ref.endsWith('.css')).reduce((n, s) => n + s.gzip, 0);
  return {
    id: 'web-first-load',
    title: '10. Weft Studio first load (gzipped)',
    lines: [
      {
        measure: 'JavaScript',
        value: `${kb(js).toFixed(1)} kB`,
        baseline: '',
        ratio: null,
        target: { op: '<=', value: 300 },
        absolute: { value: kb(js), unit: 'kB' },
      },
      { measure: 'CSS', value: `${kb(css).toFixed(1)} kB`, baseline: '', ratio: null },
    ],
    notes: [
      `Files referenced by index.html: ${sizes.map((s) => `${s.ref} ${kb(s.raw).toFixed(0)} kB (${kb(s.gzip).toFixed(1)} kB gzipped)`).join(', ')}.`,
    ],
    raw: { sizes },
  };
}
