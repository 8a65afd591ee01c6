// The suites whose code paths @weft/json-native replaces, run again with the addon turned off
// (WEFT_JSON_NATIVE=0): the JavaScript path a machine without a compiler takes must give the same
// answers. Part of `pnpm test`; each run's report is `.vitest-results-js-path.json` beside the
// main one, and scripts/sum-test-results.mjs counts both. Not the whole suite: the rest of it
// never reaches the addon, and running it twice would double CI's time.
import { spawnSync } from 'node:child_process';

const RUNS = [
  ['packages/core', []],
  ['packages/store', []],
  [
    'apps/server',
    [
      'src/http/body/json-stream-parser.test.ts',
      'src/http/body/parse-json-chunks.test.ts',
      'test/model-log-stream.test.ts',
      'test/log-body-spool.test.ts',
      'test/log-upload-concurrency.test.ts',
      'test/art-flow.test.ts',
      'test/digests.test.ts',
      'test/built-digest-thread.test.ts',
    ],
  ],
];

let failed = false;
for (const [dir, files] of RUNS) {
  console.log(`\n=== ${dir}, JavaScript JSON path (WEFT_JSON_NATIVE=0) ===`);
  const run = spawnSync('pnpm', ['exec', 'vitest', 'run', ...files], {
    cwd: dir,
    stdio: 'inherit',
    env: { ...process.env, WEFT_JSON_NATIVE: '0', WEFT_TEST_REPORT: '.vitest-results-js-path.json' },
  });
  if (run.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
