// Sums the JSON reports vitest wrote in every package into one "N passed, N failed" line.
// Exits 1 when any test failed or no test ran at all.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

let passed = 0;
let failed = 0;
// Each package's main report (.vitest-results.json) and any other pass's (.vitest-results-*.json,
// such as scripts/test-native-path.mjs's).
const REPORT = /^\.vitest-results(-[a-z-]+)?\.json$/;
for (const group of ['packages', 'apps', 'spec', 'bench']) {
  if (!existsSync(group)) continue;
  const dirs = group === 'spec' ? [group] : readdirSync(group).map((d) => join(group, d));
  for (const dir of dirs) {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) continue;
    for (const name of readdirSync(dir).filter((n) => REPORT.test(n))) {
      const report = JSON.parse(readFileSync(join(dir, name), 'utf8'));
      passed += report.numPassedTests ?? 0;
      failed += report.numFailedTests ?? 0;
      // A file that failed to load has no failed test, but the run did fail: count it once.
      if (report.success === false && (report.numFailedTests ?? 0) === 0) failed += 1;
    }
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
