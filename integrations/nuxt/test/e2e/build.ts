import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVICE_URL } from '@svc/runtime';
import { REDIRECT_PRELOAD, spawnProcess, type Spawned } from '@svc/testkit';

// Shared by the e2e files: builds examples/nuxt ONCE with `nuxi build` (plus the canary layer),
// then starts `.output/server/index.mjs` as a real process. The SDK has no base-URL option, so the
// process is preloaded with the testkit redirect seam (a test seam: the module needs no preload).

export const EXAMPLE = fileURLToPath(new URL('../../../../examples/nuxt/', import.meta.url));
export const OUTPUT = join(EXAMPLE, '.output');
const LAYER = fileURLToPath(new URL('../fixtures/build-canary/', import.meta.url));
const NUXI = fileURLToPath(new URL('../../../../node_modules/.bin/nuxi', import.meta.url));

export const CANARY = {
  apiKey: `svc_pub_${'c'.repeat(48)}`,
  keyId: 'svck_buildtimecanary',
  signingSecret: 'svc_sec_buildtimecanary7f3a9d',
};

let built: Promise<void> | undefined;

/** `nuxi build` of the example, once per test process. */
export function buildExample(): Promise<void> {
  built ??= (async () => {
    if (process.env.SVC_NUXT_REUSE_BUILD === '1' && existsSync(join(OUTPUT, 'server/index.mjs'))) {
      console.log('[nuxt e2e] SVC_NUXT_REUSE_BUILD=1: reusing examples/nuxt/.output');
      return;
    }
    const build = spawnProcess(NUXI, ['build', '--extends', LAYER], {
      cwd: EXAMPLE,
      env: { ...process.env, NUXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production' },
    });
    const code = await build.exited;
    if (code !== 0) throw new Error(`nuxi build failed (${code}):\n${build.output().slice(-4000)}`);
  })();
  return built;
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
  const app = spawnProcess(process.execPath, ['--import', REDIRECT_PRELOAD, 'server/index.mjs'], {
    cwd: OUTPUT,
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      HOST: '127.0.0.1',
      NUXT_PUBLIC_SERVICE_API_KEY: keys.apiKey,
      NUXT_SERVICE_KEY_ID: keys.keyId,
      NUXT_SERVICE_SIGNING_SECRET: keys.signingSecret,
      SVC_REDIRECT_FROM: SERVICE_URL,
      SVC_REDIRECT_TO: serviceUrl,
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
