#!/usr/bin/env node
// The `svc-next` command. A committed file rather than dist/cli.js itself, so npm links the
// command even when node_modules is installed before the package is built (a fresh checkout).
import('../dist/cli.js').catch((error) => {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  console.error('svc-next: not built yet; run `npm run build` first.');
  process.exitCode = 1;
});
