import { fileURLToPath } from 'node:url';
import { spawnProcess, useServiceAndApp } from '@svc/testkit';
import { describe, expect, it } from 'vitest';

// Process handlers in a real Node process (test/fixtures/crash-app.mjs) against the real service.
const APP = fileURLToPath(new URL('../fixtures/crash-app.mjs', import.meta.url));

const t = useServiceAndApp();

function start(mode: string) {
  t.app = spawnProcess(process.execPath, [APP], {
    env: {
      PATH: process.env.PATH,
      MODE: mode,
      SERVICE_KEY_ID: t.svc.keys.keyId,
      SERVICE_SIGNING_SECRET: t.svc.keys.signingSecret,
      SERVICE_URL: t.svc.url,
    },
  });
  return t.app;
}

describe('process handlers in a real process', () => {
  it('uncaught exception: reported and delivered, then Node still crashes with code 1', async () => {
    const child = start('uncaught');
    expect(await child.exited).toBe(1);
    expect(child.output()).toContain('TypeError: worker crashed');
    const cards = await t.svc.cards();
    expect(cards.map((c) => c.title)).toEqual(['TypeError: worker crashed (uncaught exception)']);
    expect(cards[0]).toMatchObject({ severity: 'critical', priority: 'high' });
    expect(cards[0]!.tags).toEqual(['express', 'server', 'uncaught-exception']);
  });

  it('unhandled rejection: reported and delivered, then the default crash (code 1)', async () => {
    const child = start('rejection');
    expect(await child.exited).toBe(1);
    expect(child.output()).toContain('RangeError: job rejected');
    const cards = await t.svc.cards();
    expect(cards.map((c) => c.title)).toEqual(['RangeError: job rejected (unhandled rejection)']);
  });

  it('host with its own SIGTERM handler: Svc flushes, never exits; the host shuts down itself', async () => {
    const child = start('own-sigterm');
    const [, base] = (await child.waitFor(/listening on (http:\/\/\S+)/)) as [string, string];
    await Promise.all([1, 2, 3, 4, 5].map((n) => fetch(`${base}/fail/${n}`)));
    child.kill('SIGTERM');
    expect(await child.exited).toBe(7); // the host's own exit code, not a signal death
    expect(child.output()).toContain('host shutdown done');
    const cards = await t.svc.cards();
    expect(cards.map((c) => [c.title, c.occurrence_count])).toEqual([
      ['Error: route failed (GET /fail/:n)', 5],
    ]);
  });
});
