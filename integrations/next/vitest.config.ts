import { defineConfig } from 'vitest/config';

// Unit tests are fast; the end-to-end suite builds examples/next with both bundlers (minutes).
// The app create-next-app makes is built and checked by pack's cross-framework matrix
// (pack/test/matrix/next.test.ts), which packs the tarballs once for every framework.
export default defineConfig({
  test: {
    name: 'next',
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 60_000,
    hookTimeout: 900_000,
    fileParallelism: false,
  },
});
