import { defineConfig } from 'tsdown';

// ESM + CJS. `next`, `react` and `@svc/runtime` stay external (peer / dependency).
export default defineConfig([
  {
    entry: { index: 'src/index.ts', client: 'src/client.ts', config: 'src/config.ts' },
    format: ['esm', 'cjs'],
    platform: 'neutral',
    dts: true,
    deps: { neverBundle: [/^next(\/|$)/, /^react(\/|$)/, /^@svc\/runtime/] },
  },
  {
    entry: { cli: 'src/cli.ts' },
    format: ['esm'],
    platform: 'node',
    dts: false,
    fixedExtension: false,
  },
]);
