import { defineConfig } from 'vitest/config';

// Unit tests are fast; the end-to-end suite builds the example with `vite build`, serves it with
// `vite preview` and drives Debian Chromium (tens of seconds on a busy machine).
export default defineConfig({
  test: {
    name: 'vite',
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
