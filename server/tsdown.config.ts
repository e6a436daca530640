import { defineConfig } from 'tsdown';

// ESM only: the service runs on Node; `svc-server` (dist/cli.js) keeps its shebang.
export default defineConfig({
  entry: ['src/index.ts', 'src/testing.ts', 'src/cli.ts'],
  format: ['esm'],
  platform: 'node',
  dts: true,
  clean: true,
  fixedExtension: false,
  // No source maps: the package ships no TypeScript sources for them to point at.
});
