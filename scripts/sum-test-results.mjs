// Sums the JSON reports vitest wrote in every package into one "N passed, N failed" line.
// Exits 1 when any test failed or no test ran at all.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

let passed = 0;
let failed = 0;
for (const group of ['packages', 'apps', 'spec', 'bench']) {
  if (!existsSync(group)) continue;
  const dirs = group === 'spec' ? ['.'] : readdirSync(group);
  for (const dir of dirs) {
    const file = group === 'spec' ? join(group, '.vitest-results.json') : join(group, dir, '.vitest-results.json');
    if (!existsSync(file)) continue;
    const report = JSON.parse(readFileSync(file, 'utf8'));
    passed += report.numPassedTests ?? 0;
    failed += report.numFailedTests ?? 0;
    // A file that failed to load has no failed test, but the run did fail: count it once.
    if (report.success === false && (report.numFailedTests ?? 0) === 0) failed += 1;
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
