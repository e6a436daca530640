import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'codegen',
    include: ['test/**/*.test.ts'],
    // Generation loads TypeScript, ts-morph and openapi-typescript: seconds on the shared 2-core machine.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
