// Shared vitest settings: every package also writes a JSON report that .ci/run sums into its
// closing "N passed, N failed" line (vitest's own summary is not what CI reads). A second pass
// over the same package names its own report (WEFT_TEST_REPORT, scripts/test-native-path.mjs).
import { defineConfig } from 'vitest/config';

// Workspace packages export their TypeScript sources under this condition and their build
// (dist/) otherwise: tests run the sources, `pnpm start` the build.
const conditions = ['@weft/source', 'module', 'node', 'development|production'];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    reporters: ['default', ['json', { outputFile: process.env.WEFT_TEST_REPORT ?? '.vitest-results.json' }]],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
