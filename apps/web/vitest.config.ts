import { defineConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

// The end-to-end suite drives Debian's chromium against a real server serving dist/ (built first:
// turbo runs this package's build before its tests). Browser start-up on 2 cores is slow.
// As the server's tests: without `module` (OpenTelemetry's ESM build, which the server loads, is
// not loadable by Node's own resolver).
const conditions = ['@weft/source', 'node', 'development|production'];

export default defineConfig({
  ...shared,
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: { ...shared.test, include: ['src/**/*.test.ts', 'e2e/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 120_000 },
});
