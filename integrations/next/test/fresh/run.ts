// `next build` and `next start` of the fresh app, with the environment the README gives them.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestService } from '@svc/server/testing';
import { type Spawned, spawnProcess } from '@svc/testkit';
import { readme } from './readme.ts';

export type Bundler = 'turbopack' | 'webpack';

const DEBUG_PRELOAD = fileURLToPath(new URL('../e2e/debug-preload.mjs', import.meta.url));

/**
 * The README's variables (checked against the README's own list), in the environment of a user's
 * shell: without the test runner's NODE_ENV and NODE_OPTIONS, and with Next's telemetry off (it
 * would try the network).
 */
export function readmeEnv(service: TestService): NodeJS.ProcessEnv {
  const values: Record<string, string> = {
    SERVICE_URL: service.url,
    SERVICE_KEY_ID: service.keys.keyId,
    SERVICE_SIGNING_SECRET: service.keys.signingSecret,
    NEXT_PUBLIC_SERVICE_API_KEY: service.keys.apiKey,
  };
  const named = readme.variables();
  if (named.sort().join() !== Object.keys(values).sort().join())
    throw new Error(`README variables changed: ${named.join(', ')}`);
  const runner = (key: string) =>
    key === 'NODE_ENV' || key === 'NODE_OPTIONS' || key.startsWith('VITEST');
  const shell = Object.entries(process.env).filter(([key]) => !runner(key));
  const env = { ...Object.fromEntries(shell), ...values, NEXT_TELEMETRY_DISABLED: '1' };
  // A shell has no NODE_ENV, which Next's declaration of ProcessEnv requires.
  return env as unknown as NodeJS.ProcessEnv;
}

/** `next build --turbopack|--webpack`; returns its output. */
export async function build(
  dir: string,
  bundler: Bundler,
  env: NodeJS.ProcessEnv,
): Promise<string> {
  const next = spawnProcess(join(dir, 'node_modules/.bin/next'), ['build', `--${bundler}`], {
    cwd: dir,
    env,
  });
  const code = await next.exited;
  if (code !== 0) throw new Error(`next build --${bundler} failed (${code}):\n${next.output()}`);
  return next.output();
}

/**
 * `next start` on a free port. The preload turns on @svc/next's debug lines (how each server
 * report was flushed) without touching the app's files.
 */
export async function start(dir: string, env: NodeJS.ProcessEnv) {
  const app: Spawned = spawnProcess(
    join(dir, 'node_modules/.bin/next'),
    ['start', '-p', '0', '-H', '127.0.0.1'],
    { cwd: dir, env: { ...env, NODE_OPTIONS: `--import=${DEBUG_PRELOAD}` } },
  );
  const [, url] = (await app.waitFor(/Local:\s+(http:\/\/\S+)/, 120_000)) as RegExpMatchArray;
  await app.waitFor(/Ready in/, 120_000);
  return { url: url!, app };
}
