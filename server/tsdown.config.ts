import { defineConfig } from 'tsdown';

// ESM only: the service runs on Node; `svc-server` (dist/cli.js) keeps its shebang.
export default defineConfig({
  entry: {
    index: 'src/index.ts',
    testing: 'src/testing.ts',
    cli: 'src/cli.ts',
    // The WAL checkpointer's worker thread: a file of its own beside the chunks (never `eval`).
    'checkpoint-worker': 'src/store/sqlite/checkpoint-worker.js',
  },
  format: ['esm'],
  platform: 'node',
  dts: true,
  clean: true,
  fixedExtension: false,
  // No source maps: the package ships no TypeScript sources for them to point at.
});
