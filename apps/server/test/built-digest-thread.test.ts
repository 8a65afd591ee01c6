// The built @weft/core digests large texts on its own thread, from digest-worker.js beside it (the
// tests run TypeScript, where the thread's entry is bundled on the fly instead; a built package
// that failed to start its thread would still answer, only on the main thread: this test is what
// would notice). Plain node, no loader, as `pnpm start` runs it.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { withBuildLock } from './build-lock.ts';

const coreDist = fileURLToPath(new URL('../../../packages/core/dist/index.js', import.meta.url));

const SCRIPT = `
const { parsedTextDigest, digestOfValue, digestThreadStops } = await import(process.argv[1]);
const text = JSON.stringify({ rows: Array.from({ length: 200000 }, (_, i) => ({ token: 't' + i, logprob: -i / 7, bytes: [116, i % 10] })) });
let turns = 0, done = false;
const answer = parsedTextDigest(text).finally(() => (done = true));
while (!done) { await new Promise((resolve) => setImmediate(resolve)); turns++; }
console.log(JSON.stringify({ turns, stops: digestThreadStops(), digest: (await answer).digest, expected: digestOfValue(JSON.parse(text)) }));
`;

it(
  'the built package digests a large text off the main thread, with the same digest',
  () =>
    withBuildLock(async () => {
      const out = execFileSync(process.execPath, ['--input-type=module', '-e', SCRIPT, coreDist], { encoding: 'utf8', timeout: 60_000 });
      const { turns, stops, digest, expected } = JSON.parse(out) as { turns: number; stops: number; digest: string; expected: string };
      expect(digest).toBe(expected);
      // The thread started (digest-worker.js found and loaded) and did the work: in place, the
      // call would return only once done, and the event loop would not have turned.
      expect(stops).toBe(0);
      expect(turns).toBeGreaterThan(10);
    }),
  120_000,
);
