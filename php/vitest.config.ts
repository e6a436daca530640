import { defineConfig } from 'vitest/config';

// The PHP SDK's PHPUnit suite, run by tests/phpunit.test.ts so its results count in npm test, and
// the runnable examples on Debian's framework packages (tests/examples).
export default defineConfig({
  test: {
    name: 'php',
    include: ['tests/phpunit.test.ts', 'tests/examples/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
