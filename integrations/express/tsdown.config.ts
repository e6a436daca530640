import { defineConfig } from 'tsdown';

// ESM + CJS: Express apps are still often CommonJS.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  platform: 'node',
  dts: true,
  clean: true,
});
