import { defineConfig } from 'tsdown';

// ESM only. `index` is the Node-side plugin; `client`, `react`, `vue` run in the browser and must
// not import any `node:` module.
export default defineConfig([
  {
    entry: ['src/index.ts'],
    format: ['esm'],
    platform: 'node',
    dts: true,
    clean: false,
  },
  {
    entry: ['src/client.ts', 'src/react.ts', 'src/vue.ts'],
    format: ['esm'],
    platform: 'browser',
    fixedExtension: true,
    dts: true,
    clean: false,
  },
]);
