import { defineConfig } from 'vitest/config';

// The PHP SDK's PHPUnit suite, run by tests/phpunit.test.ts so its results count in npm test.
export default defineConfig({
  test: {
    name: 'php',
    include: ['tests/phpunit.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
