import { defineConfig } from 'vitest/config';
import { SERVICE_SUITES } from './test/workers.ts';

// The store-dependent suites again, on PostgreSQL: the same files as the `server` project, with
// `inject('postgresUrl')` set, so every service under test gets a fresh database (test/store-kind.ts).
// Suites of store-independent code (core, board on SQLite) run once, in `server`.
export const POSTGRES_SUITES = [
  'test/store/contract/*.test.ts',
  'test/store/limits.test.ts',
  'test/store/durability.test.ts',
  'test/store/lifecycle.test.ts',
  'test/store/pg/*.test.ts',
  'test/http/*.test.ts',
  'test/auth/authenticate.test.ts',
  'test/core/encryption.test.ts',
  'test/mail/*.test.ts',
  'test/board/alerts-forms.test.ts',
  'test/alerts/delivery.test.ts',
  'test/alerts/close.test.ts',
  'test/cli/*.test.ts',
  'test/board/http.test.ts',
  'test/board/sourcemaps.test.ts',
  'test/board/bounded.test.ts',
  'test/board/page-bytes.test.ts',
  'test/board/cli.test.ts',
  'test/board/triage.test.ts',
  'test/board/triage-forms.test.ts',
  'test/board/environments.test.ts',
  'test/board/sign-in-throttle.test.ts',
  'test/board/faults.test.ts',
  'test/board/team-browser.test.ts',
];

export default defineConfig({
  test: {
    name: 'server-pg',
    include: POSTGRES_SUITES,
    globalSetup: ['test/postgres-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    ...SERVICE_SUITES,
  },
});
