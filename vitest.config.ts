import { defineConfig } from 'vitest/config';

// One root config; each package is a project with its own vitest.config.ts.
export default defineConfig({
  test: {
    projects: ['codegen', 'runtime', 'server', 'integrations/*', 'php', 'demo', 'testkit', 'pack'],
  },
});
