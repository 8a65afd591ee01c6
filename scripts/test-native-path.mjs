// `pnpm test` runs the whole suite with the C++ addon @weft/json-native turned off
// (WEFT_JSON_NATIVE=0): the JavaScript path a machine without a compiler takes. This second pass
// runs again, with the addon on, the suites whose code paths it replaces: core (with its
// differential fuzz of the addon against the JavaScript reference), store, and the server's body
// parsing (a large body's table rows kept as text: long-lists), log and digest tests. The rest of
// the suite never reaches the addon, so running it twice would only double CI's time. Each run's report is `.vitest-results-native-path.json`
// beside the main one; scripts/sum-test-results.mjs counts both.
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
      'test/long-lists.test.ts',
      'test/built-digest-thread.test.ts',
    ],
  ],
];

let failed = false;
for (const [dir, files] of RUNS) {
  console.log(`\n=== ${dir}, with the C++ addon @weft/json-native ===`);
  const env = { ...process.env, WEFT_TEST_REPORT: '.vitest-results-native-path.json' };
  delete env.WEFT_JSON_NATIVE;
  const run = spawnSync('pnpm', ['exec', 'vitest', 'run', ...files], { cwd: dir, stdio: 'inherit', env });
  if (run.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
