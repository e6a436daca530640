// What @svc/nuxt adds to a Nuxt 4 production build, side by side in one run with the floor (the
// same app without the module): client JS (gzip), Nitro server bundle, and `nuxi build` time.
// Run: node bench/nuxt/run.mjs   (needs `npm run build -w @svc/runtime -w @svc/nuxt` first)
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const NUXI = fileURLToPath(new URL('../../node_modules/.bin/nuxi', import.meta.url));
// Fixture apps live under bench/nuxt/.work so bare imports resolve from the repository's node_modules.
const WORK = join(HERE, '.work');
rmSync(WORK, { recursive: true, force: true });

const PAGE = `<script setup lang="ts">
const n = ref(0);
</script>
<template><button @click="n++">{{ n }}</button></template>
`;
const APPS = {
  'no error reporting (floor)': `{ modules: [] }`,
  '@svc/nuxt': `{ modules: ['@svc/nuxt'], svc: { apiKey: 'svc_pub_${'0'.repeat(48)}' } }`,
  'floor, hidden client maps': `{ modules: [], sourcemap: { client: 'hidden' } }`,
  '@svc/nuxt, sourceMaps: true': `{ modules: ['@svc/nuxt'], svc: { sourceMaps: true } }`,
};

function files(dir, ext) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(ext))
    .map((e) => join(e.parentPath, e.name));
}

function buildApp(name, config) {
  const root = join(WORK, name.replace(/\W+/g, '-'));
  mkdirSync(join(root, 'app'), { recursive: true });
  writeFileSync(
    join(root, 'nuxt.config.ts'),
    `export default defineNuxtConfig({ compatibilityDate: '2026-11-01', telemetry: false, devtools: { enabled: false }, ...${config} });\n`,
  );
  writeFileSync(join(root, 'app/app.vue'), PAGE);
  const start = performance.now();
  const r = spawnSync(NUXI, ['build'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NUXT_TELEMETRY_DISABLED: '1' },
  });
  const ms = performance.now() - start;
  if (r.status !== 0) throw new Error(`${name}: nuxi build failed\n${r.stdout}\n${r.stderr}`);
  const pub = join(root, '.output/public/_nuxt');
  const js = files(pub, '.js');
  const clientGz = js.reduce((n, f) => n + gzipSync(readFileSync(f)).length, 0);
  const entry = js.find((f) => readFileSync(f, 'utf8').includes('__NUXT__')) ?? js[0];
  const entryGz = gzipSync(readFileSync(entry)).length;
  const server = files(join(root, '.output/server'), '.mjs').reduce(
    (n, f) => n + statSync(f).size,
    0,
  );
  return { clientGz, entryGz, server, ms };
}

const kb = (n) => (n / 1024).toFixed(1);
console.log(
  '| App | client JS, all chunks (gzip KB) | entry chunk (gzip KB) | server .mjs (KB) | nuxi build (s) |',
);
console.log('|---|---|---|---|---|');
for (const [name, config] of Object.entries(APPS)) {
  const r = buildApp(name, config);
  console.log(
    `| ${name} | ${kb(r.clientGz)} | ${kb(r.entryGz)} | ${kb(r.server)} | ${(r.ms / 1000).toFixed(1)} |`,
  );
}
rmSync(WORK, { recursive: true, force: true });
