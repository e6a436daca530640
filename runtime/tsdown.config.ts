import { defineConfig } from 'tsdown';

// Two builds selected by the `node` / `browser` (and `deno`, `workerd`) export conditions, each ESM + CJS with types.
// The browser build imports no `node:` module; the sealing code stays a lazy import. A third,
// platform-neutral build is `@svc/runtime/kit` (the integrations' shared helpers), built apart so
// it shares no chunk with the client entries (the browser start-up chunk stays as it is). A fourth,
// also neutral and apart, is `@svc/runtime/testing` (the fake client for users' tests). A fifth, Node
// only and apart, is `@svc/runtime/sourcemaps` (build time: the upload of a build's maps and the
// `svc-sourcemaps` command), which no browser bundle ever reaches.
export default defineConfig([
  {
    entry: { 'index.node': 'src/index.node.ts' },
    format: ['esm', 'cjs'],
    platform: 'node',
    fixedExtension: true,
    target: 'node20',
    dts: true,
    clean: true,
  },
  {
    // Deno's entry (the `deno` condition) is built with the browser's: it shares its chunks.
    entry: { 'index.browser': 'src/index.browser.ts', 'index.deno': 'src/index.deno.ts' },
    format: ['esm', 'cjs'],
    platform: 'browser',
    fixedExtension: true,
    target: 'es2022',
    dts: true,
    // Short chunk names without a hash (the app's bundler hashes them): every lazy chunk's name is
    // a string in the start-up code. `-b` keeps them apart from the Node build's chunks.
    outputOptions: (options, format) => ({
      ...options,
      chunkFileNames: `[name]-b.${format === 'cjs' ? 'cjs' : 'mjs'}`,
    }),
  },
  {
    entry: { kit: 'src/kit/index.ts' },
    format: ['esm', 'cjs'],
    platform: 'neutral',
    fixedExtension: true,
    target: 'es2022',
    dts: true,
  },
  {
    entry: { testing: 'src/testing/index.ts' },
    format: ['esm', 'cjs'],
    platform: 'neutral',
    fixedExtension: true,
    target: 'es2022',
    dts: true,
  },
  {
    entry: { sourcemaps: 'src/sourcemaps/index.ts' },
    format: ['esm', 'cjs'],
    platform: 'node',
    fixedExtension: true,
    target: 'node20',
    dts: true,
  },
]);
