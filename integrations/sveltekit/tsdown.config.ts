import { defineConfig } from 'tsdown';

// ESM only, as SvelteKit. `index` runs on the server (any adapter: it finds `process` on
// `globalThis`), `client` in the browser, `vite` in the build; none imports a `node:` module.
export default defineConfig({
  entry: ['src/index.ts', 'src/client.ts', 'src/vite.ts'],
  format: ['esm'],
  platform: 'neutral',
  fixedExtension: true,
  target: 'es2022',
  dts: true,
  clean: true,
  external: [/^@svc\//, 'vite'],
});
