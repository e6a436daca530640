import { fileURLToPath } from 'node:url';
import { spawnProcess, type TestService, useServiceAndApp } from '@svc/testkit';
import { describe, expect, it } from 'vitest';

// Runs examples/express as a real process against the real reference service, which the app
// reaches through SERVICE_URL, as a self-hosting user sets it.
const EXAMPLE = fileURLToPath(new URL('../../../../examples/express/', import.meta.url));

type Card = Awaited<ReturnType<TestService['cards']>>[number];
const t = useServiceAndApp();

async function startExample(extraEnv: Record<string, string> = {}) {
  t.app = spawnProcess(process.execPath, ['src/server.js'], {
    cwd: EXAMPLE,
    env: {
      PATH: process.env.PATH,
      PORT: '0',
      SERVICE_KEY_ID: t.svc.keys.keyId,
      SERVICE_SIGNING_SECRET: t.svc.keys.signingSecret,
      SERVICE_URL: t.svc.url,
      ...extraEnv,
    },
  });
  const [, base] = await t.app.waitFor(/listening on (http:\/\/\S+)/);
  return base!;
}

/** Polls the service until `done(cards)` holds; returns the last cards seen. */
async function cardsWhen(done: (cards: Card[]) => boolean, timeoutMs = 30_000): Promise<Card[]> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const cards = await t.svc.cards();
    if (done(cards) || Date.now() > end) return cards;
    await new Promise((r) => setTimeout(r, 200));
  }
}

// The example's route throws `Order <id> could not be loaded: ...` with the requested id.
const ORDER_TITLE =
  'Error: Order <n> could not be loaded: inventory service timed out (GET /orders/:id)';

describe('examples/express against the reference service', () => {
  it('a failing route makes one card titled by class, masked message and route pattern; 4xx makes none', async () => {
    const base = await startExample({ NODE_ENV: 'production', SERVICE_RELEASE: 'v1.4.0' });
    const res = await fetch(`${base}/orders/1001`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: 'Internal error' }); // the app's own handler ran
    expect((await fetch(`${base}/missing`)).status).toBe(404);
    const cards = await cardsWhen((c) => c.length > 0);
    expect(cards).toHaveLength(1);
    expect(cards[0]!.title).toBe(ORDER_TITLE);
    expect(cards[0]!.severity).toBe('major');
    expect(cards[0]!.description).toContain('Order 1001 could not be loaded');
    expect(cards[0]!.tags).toEqual(
      expect.arrayContaining([
        'express',
        'server',
        'server-error',
        'method:GET',
        'env:production',
        'release:v1.4.0',
      ]),
    );
    expect(t.app!.output()).not.toContain(t.svc.keys.signingSecret);
  });

  it('50 failing requests whose messages differ only in the order id make one card with occurrence_count 50', async () => {
    const base = await startExample();
    const statuses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => fetch(`${base}/orders/${i}`).then((r) => r.status)),
    );
    expect(new Set(statuses)).toEqual(new Set([500]));
    const cards = await cardsWhen((c) => c[0]?.occurrence_count === 50);
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({ title: ORDER_TITLE, occurrence_count: 50 });
  });

  it('SIGTERM with reports still queued: all are delivered before the process exits', async () => {
    const base = await startExample();
    await Promise.all(Array.from({ length: 30 }, (_, i) => fetch(`${base}/orders/${i}`)));
    const before = (await t.svc.cards())[0]?.occurrence_count ?? 0;
    t.app!.kill('SIGTERM');
    // No SIGTERM listener of its own in the example: Svc flushes, then re-raises the signal.
    expect(await t.app!.exited).toBe('SIGTERM');
    const cards = await t.svc.cards();
    expect(before).toBeLessThan(30); // reports really were still queued at SIGTERM
    expect(cards).toHaveLength(1);
    expect(cards[0]!.occurrence_count).toBe(30);
  });
});
