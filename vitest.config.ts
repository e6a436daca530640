import { defineConfig } from 'vitest/config';

// One root config; each package is a project with its own vitest.config.ts. The server's
// store-dependent suites run a second time on PostgreSQL (server/vitest.pg.config.ts).
export default defineConfig({
  test: {
    projects: [
      'codegen',
      'runtime',
      'server',
      'server/vitest.pg.config.ts',
      'integrations/*',
      'php',
      'demo',
      'testkit',
      'pack',
    ],
  },
});
