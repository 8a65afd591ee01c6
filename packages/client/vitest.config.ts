// The shared settings, plus typecheck mode so the type-level tests (src/*.test-d.ts) run as
// tests too: vitest compiles them with tsc and reports each type error as a failure.
import { defineConfig, mergeConfig } from 'vitest/config';
import shared from '../../vitest.shared.ts';

export default mergeConfig(
  shared,
  defineConfig({
    test: {
      typecheck: { enabled: true, include: ['src/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
    },
  }),
);
