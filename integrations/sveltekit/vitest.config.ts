import { defineConfig } from 'vitest/config';

// The hooks against the real reference service; the apps `sv create` makes (kit 2 and 3) run in
// pack's cross-framework matrix.
export default defineConfig({
  test: {
    name: 'sveltekit',
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
