// Shared vitest settings: every package also writes a JSON report that .ci/run sums into its
// closing "N passed, N failed" line (vitest's own summary is not what CI reads).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: ['default', ['json', { outputFile: '.vitest-results.json' }]],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
