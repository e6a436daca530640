import { defineConfig } from 'tsdown';

// ESM + CJS, platform neutral: the same build runs in workerd, Bun, Deno and Node, and imports
// nothing from `node:` (what it needs of a runtime it finds on `globalThis`).
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  platform: 'neutral',
  fixedExtension: true,
  target: 'es2022',
  dts: true,
  clean: true,
});
