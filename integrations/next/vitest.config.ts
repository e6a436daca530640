import { defineConfig } from 'vitest/config';

// Unit tests are fast; the end-to-end suite builds the example with both bundlers (minutes).
export default defineConfig({
  test: {
    name: 'next',
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 30_000,
    hookTimeout: 900_000,
    fileParallelism: false,
  },
});
