import { defineConfig } from 'vitest/config';

// The hooks against the real reference service; the app `create-react-router` makes runs in
// pack's cross-framework matrix.
export default defineConfig({
  test: {
    name: 'react-router',
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
