import { defineConfig } from 'vitest/config';

// A real Hono app against the real reference service, in this Node; the runtimes themselves
// (workerd, Bun, Deno, Node) run the apps create-hono makes in pack's cross-framework matrix.
export default defineConfig({
  test: {
    name: 'hono',
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
