import { defineConfig } from 'vitest/config';

// One file: packs every public package once and installs the tarballs into one fresh app.
export default defineConfig({
  test: {
    name: 'pack',
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 600_000,
  },
});
