import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'nuxt',
    include: ['test/**/*.test.ts'],
    // The end-to-end suite builds the example with `nuxi build` once (minutes on a shared machine).
    testTimeout: 120_000,
    hookTimeout: 600_000,
    fileParallelism: false,
    globalSetup: ['test/e2e/global-setup.ts'],
  },
});
