// `next dev` of the example app against the real reference service, configured as a user
// configures production (SERVICE_URL and the keys, no environment named): its reports arrive
// tagged `env:development` by default (Next sets NODE_ENV), so the board keeps them out of the
// production view (server/test/board/team-browser.test.ts shows that view).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestService, type TestService } from '@svc/server/testing';
import { type Spawned, spawnProcess } from '@svc/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EXAMPLE_DIR, waitUntil } from './app.ts';

const NEXT_BIN = fileURLToPath(
  new URL('../../../../node_modules/next/dist/bin/next', import.meta.url),
);
// Next's default distDir: `next dev` then writes to .next/dev, whose types the example's tsconfig
// already includes (another distDir would make Next rewrite tsconfig.json).
const DEV_DIR = '.next/dev';

let service: TestService;
let app: Spawned | undefined;
let appUrl: string;

beforeAll(async () => {
  service = await startTestService();
  rmSync(join(EXAMPLE_DIR, DEV_DIR), { recursive: true, force: true });
  const { NODE_ENV: _node, SVC_NEXT_DIST_DIR: _dist, ...env } = process.env;
  app = spawnProcess(process.execPath, [NEXT_BIN, 'dev', '-p', '0', '-H', '127.0.0.1'], {
    cwd: EXAMPLE_DIR,
    env: {
      ...env,
      SERVICE_URL: service.url,
      NEXT_TELEMETRY_DISABLED: '1',
      NEXT_PUBLIC_SERVICE_API_KEY: service.keys.apiKey,
      SERVICE_KEY_ID: service.keys.keyId,
      SERVICE_SIGNING_SECRET: service.keys.signingSecret,
      // Next's types require NODE_ENV; `next dev` sets it, as it does for a user.
    } as unknown as NodeJS.ProcessEnv,
  });
  const [, url] = (await app.waitFor(/Local:\s+(http:\/\/\S+)/, 120_000)) as RegExpMatchArray;
  appUrl = url!;
});

afterAll(async () => {
  app?.kill();
  await app?.exited;
  await service?.close();
  rmSync(join(EXAMPLE_DIR, DEV_DIR), { recursive: true, force: true });
  rmSync(join(EXAMPLE_DIR, 'next-env.d.ts'), { force: true });
});

it('a route handler failing under next dev makes a card tagged env:development, not production', async () => {
  // The first request compiles the route (slow on a loaded machine).
  expect((await fetch(`${appUrl}/api/boom`, { signal: AbortSignal.timeout(300_000) })).status).toBe(
    500,
  );
  const cards = await waitUntil(
    () => service.cards(),
    (c) => c.length > 0,
  );
  expect(cards.map((c) => c.title)).toEqual([
    'TypeError: Cannot read properties of undefined (reading <value>) (GET /api/boom)',
  ]);
  expect(cards[0]!.tags).toContain('env:development');
  expect(cards[0]!.tags).not.toContain('env:production');
}, 360_000);
