import { defineConfig } from 'vitest/config';

// Packs every public package once and installs the tarballs into one fresh app (test/setup.ts);
// the test files share it through `inject('fresh')` and run one after another, as each of them
// is heavy (tsc over third-party declarations, a Vite build and Chromium, spawned services).
export default defineConfig({
  test: {
    name: 'pack',
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 600_000,
  },
});
