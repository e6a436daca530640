import { defineConfig } from 'vitest/config';
import { SERVICE_SUITES } from './test/workers.ts';

export default defineConfig({
  test: {
    name: 'server',
    include: ['test/**/*.test.ts'],
    // PostgreSQL-only suites (several instances on one database) run in `server-pg`.
    exclude: ['test/store/pg/**', '**/node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    ...SERVICE_SUITES,
  },
});
