import { defineConfig } from 'vitest/config';

// Unit tests are fast; the end-to-end suite runs the example app as a child process against the
// real reference service.
export default defineConfig({
  test: {
    name: 'express',
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
