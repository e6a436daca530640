import { defineConfig } from 'vitest/config';

// Unit tests are fast; the end-to-end suites build the example and a fresh create-next-app app
// with both bundlers (minutes). The global setup only provides the fresh app's directory.
export default defineConfig({
  test: {
    name: 'next',
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 60_000,
    hookTimeout: 900_000,
    fileParallelism: false,
    globalSetup: ['test/fresh/setup.ts'],
  },
});
