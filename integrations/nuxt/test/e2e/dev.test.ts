// `nuxi dev` of the example app against the real reference service, configured as a user
// configures production (SERVICE_URL and the keys, no environment named): a failing server route's
// report arrives tagged `env:development` by default (the Nitro plugin reads `import.meta.dev`), so
// the board keeps it out of the production view (server/test/board/team-browser.test.ts).
import { fileURLToPath } from 'node:url';
import { startTestService, type TestService } from '@svc/server/testing';
import { type Spawned, spawnProcess } from '@svc/testkit';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EXAMPLE, until } from './build';

const NUXI = fileURLToPath(new URL('../../../../node_modules/.bin/nuxi', import.meta.url));
// `nuxi dev` writes `.nuxt` (Nuxt's own, ignored); the other files run the built `.output`.

let service: TestService;
let app: Spawned | undefined;
let base: string;

beforeAll(async () => {
  service = await startTestService();
  // A shell's environment: no NODE_ENV, and none of vitest's variables (with them Nuxt's logger
  // takes itself for a test run and prints nothing, not even the address).
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => k !== 'NODE_ENV' && k !== 'TEST' && !k.startsWith('VITEST'),
    ),
  );
  app = spawnProcess(NUXI, ['dev', '--port', '0', '--host', '127.0.0.1', '--no-qr'], {
    cwd: EXAMPLE,
    env: {
      ...env,
      NUXT_TELEMETRY_DISABLED: '1',
      SERVICE_URL: service.url,
      NUXT_PUBLIC_SERVICE_URL: service.url,
      NUXT_PUBLIC_SERVICE_API_KEY: service.keys.apiKey,
      NUXT_SERVICE_KEY_ID: service.keys.keyId,
      NUXT_SERVICE_SIGNING_SECRET: service.keys.signingSecret,
    },
  });
  const [, url] = (await app.waitFor(/Local:\s+(http:\/\/\S+)/, 300_000)) as RegExpMatchArray;
  base = url!.replace(/\/$/, '');
});

afterAll(async () => {
  app?.kill();
  await app?.exited;
  await service?.close();
});

it('a server route failing under nuxi dev makes a card tagged env:development, not production', async () => {
  // The dev server answers once Nitro is built (slow on a loaded machine): retry until it is.
  const status = await until(
    async () => (await fetch(`${base}/api/boom`).catch(() => undefined))?.status,
    (s) => s === 500,
    300_000,
  );
  expect(status).toBe(500);
  const cards = await until(
    () => service.cards(),
    (c) => c.length > 0,
  );
  expect(cards.map((c) => c.title)).toEqual(['RangeError: Server route exploded (GET /api/boom)']);
  expect(cards[0]!.tags).toContain('env:development');
  expect(cards[0]!.tags).not.toContain('env:production');
}, 360_000);
