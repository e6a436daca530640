#!/usr/bin/env node
// The `svc-sourcemaps` command. A committed file rather than a dist file itself, so npm links the
// command even when node_modules is installed before the package is built (a fresh checkout).
import('../dist/sourcemaps.mjs').then(
  async ({ runCli }) => {
    process.exitCode = await runCli(process.argv.slice(2));
  },
  (error) => {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    console.error('svc-sourcemaps: not built yet; run `npm run build` first.');
    process.exitCode = 1;
  },
);
