// Builds and starts the real example app (examples/next) with `next build` / `next start`.
import { fileURLToPath } from 'node:url';
import { type Spawned, spawnProcess } from '@svc/testkit';

export const EXAMPLE_DIR = fileURLToPath(new URL('../../../../examples/next/', import.meta.url));
const DEBUG_PRELOAD = fileURLToPath(new URL('./debug-preload.mjs', import.meta.url));
const NEXT_BIN = fileURLToPath(
  new URL('../../../../node_modules/next/dist/bin/next', import.meta.url),
);

export type Bundler = 'webpack' | 'turbopack';

export interface Keys {
  apiKey: string;
  keyId: string;
  signingSecret: string;
}

/** The environment a self-hosting user gives `next build` and `next start`. */
function baseEnv(distDir: string, keys: Keys, serviceUrl: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    SERVICE_URL: serviceUrl,
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    SVC_NEXT_DIST_DIR: distDir,
    NEXT_PUBLIC_SERVICE_API_KEY: keys.apiKey,
    SERVICE_KEY_ID: keys.keyId,
    SERVICE_SIGNING_SECRET: keys.signingSecret,
  };
}

/**
 * `next build --webpack|--turbopack` into `distDir`, with every credential and `SERVICE_URL` in the
 * environment (withSvc hands the address to the browser as `NEXT_PUBLIC_SERVICE_URL`).
 */
export async function buildExample(
  bundler: Bundler,
  distDir: string,
  keys: Keys,
  serviceUrl: string,
): Promise<void> {
  const build = spawnProcess(process.execPath, [NEXT_BIN, 'build', `--${bundler}`], {
    cwd: EXAMPLE_DIR,
    // Only the build sees SERVICE_RELEASE: withSvc must carry it into server and browser code.
    env: { ...baseEnv(distDir, keys, serviceUrl), SERVICE_RELEASE: 'e2e' },
  });
  const code = await build.exited;
  if (code !== 0) throw new Error(`next build --${bundler} failed (${code}):\n${build.output()}`);
}

/** `next start` on a random port, with `SERVICE_URL` pointing at the local reference service. */
export async function startExample(
  distDir: string,
  keys: Keys,
  serviceUrl: string,
): Promise<{ url: string; app: Spawned }> {
  const app = spawnProcess(process.execPath, [NEXT_BIN, 'start', '-p', '0', '-H', '127.0.0.1'], {
    cwd: EXAMPLE_DIR,
    env: {
      ...baseEnv(distDir, keys, serviceUrl),
      NODE_OPTIONS: `--import=${DEBUG_PRELOAD}`,
    },
  });
  const [, url] = (await app.waitFor(/Local:\s+(http:\/\/\S+)/, 120_000)) as RegExpMatchArray;
  await app.waitFor(/Ready in/, 120_000);
  return { url: url!, app };
}

/** Polls `read` until `done` holds or `timeoutMs` passes; returns the last value either way. */
export async function waitUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 250));
    value = await read();
  }
  return value;
}
