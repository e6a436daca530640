import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnProcess, type Spawned } from '@svc/testkit';

// Shared by the e2e files: builds examples/nuxt ONCE with `nuxi build` (plus the canary layer,
// from the globalSetup), then starts `.output/server/index.mjs` as a real process, pointed at the
// local reference service as a self-hosting user does: SERVICE_URL (Nitro) and
// NUXT_PUBLIC_SERVICE_URL (the browser), both read at run time.

export const EXAMPLE = fileURLToPath(new URL('../../../../examples/nuxt/', import.meta.url));
export const OUTPUT = join(EXAMPLE, '.output');
const LAYER = fileURLToPath(new URL('../fixtures/build-canary/', import.meta.url));
const NUXI = fileURLToPath(new URL('../../../../node_modules/.bin/nuxi', import.meta.url));

export const CANARY = {
  apiKey: `svc_pub_${'c'.repeat(48)}`,
  keyId: 'svck_buildtimecanary',
  signingSecret: 'svc_sec_buildtimecanary7f3a9d',
};

/** Newest modification time under the build's inputs (module, runtime, example, canary layer). */
async function newestInput(): Promise<number> {
  const roots = [
    fileURLToPath(new URL('../../dist/', import.meta.url)),
    fileURLToPath(new URL('../../../../runtime/dist/', import.meta.url)),
    join(EXAMPLE, 'app'),
    join(EXAMPLE, 'server'),
    join(EXAMPLE, 'nuxt.config.ts'),
    LAYER,
  ];
  let newest = 0;
  for (const root of roots) {
    const info = await stat(root).catch(() => undefined);
    if (!info) return Number.POSITIVE_INFINITY; // a missing input: build (and report the failure)
    newest = Math.max(newest, info.mtimeMs);
    if (!info.isDirectory()) continue;
    for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
      if (entry.isFile())
        newest = Math.max(newest, (await stat(join(entry.parentPath, entry.name))).mtimeMs);
    }
  }
  return newest;
}

/**
 * `nuxi build` of the example; run once per test run from the vitest `globalSetup`. An existing
 * `.output` newer than every input is reused (it is exactly what a build would produce).
 */
export async function buildExample(): Promise<void> {
  const stamp = join(OUTPUT, 'nitro.json');
  if (existsSync(stamp) && (await stat(stamp)).mtimeMs > (await newestInput())) {
    console.log('[nuxt e2e] examples/nuxt/.output is newer than its inputs: reusing it');
    return;
  }
  const build = spawnProcess(NUXI, ['build', '--extends', LAYER], {
    cwd: EXAMPLE,
    env: { ...process.env, NUXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production' },
  });
  const code = await build.exited;
  if (code !== 0) throw new Error(`nuxi build failed (${code}):\n${build.output().slice(-4000)}`);
}

export interface Keys {
  apiKey: string;
  keyId: string;
  signingSecret: string;
}

/** Starts the built server on a random port with run-time keys; resolves with its base URL. */
export async function startApp(
  serviceUrl: string,
  keys: Keys,
  env: Record<string, string> = {},
): Promise<{ app: Spawned; base: string }> {
  // As deployed: `node .output/server/index.mjs` from the app's root.
  const app = spawnProcess(process.execPath, ['.output/server/index.mjs'], {
    cwd: EXAMPLE,
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      HOST: '127.0.0.1',
      SERVICE_URL: serviceUrl,
      NUXT_PUBLIC_SERVICE_URL: serviceUrl,
      NUXT_PUBLIC_SERVICE_API_KEY: keys.apiKey,
      NUXT_SERVICE_KEY_ID: keys.keyId,
      NUXT_SERVICE_SIGNING_SECRET: keys.signingSecret,
      NUXT_PUBLIC_SERVICE_ENVIRONMENT: 'example',
      ...env,
    },
  });
  const [, base] = await app.waitFor(/Listening on (http:\/\/\S+)/);
  return { app, base: base!.replace(/\/$/, '') };
}

/** Every file under `dir` whose bytes contain any of `needles`. */
export async function filesContaining(dir: string, needles: string[]): Promise<string[]> {
  const hits: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const text = await readFile(path, 'latin1');
    if (needles.some((n) => text.includes(n))) hits.push(path);
  }
  return hits;
}

/** Polls `read` until `done` holds or the timeout passes; returns the last value. */
export async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 30_000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
}
