import { useServiceAndApp } from '@svc/testkit';
import { describe, expect, it } from 'vitest';
import { CANARY, filesContaining, OUTPUT, startApp, until } from './build';

const t = useServiceAndApp();

describe('examples/nuxt server side, built with nuxi build, against the reference service', () => {
  it('server-route errors make cards titled by class, masked message and route pattern; 4xx make none', async () => {
    const started = await startApp(t.svc.url, t.svc.keys);
    t.app = started.app;
    const get = (path: string) => fetch(started.base + path).then((r) => r.status);
    expect(await get('/api/boom')).toBe(500);
    expect(await get('/api/items/42')).toBe(500);
    expect(await get('/api/items/7')).toBe(500);
    expect(await get('/api/items/gone')).toBe(404); // H3Error 404: skipped
    expect(await get('/api/missing')).toBe(404); // NuxtError 404 from the renderer: skipped
    const cards = await until(
      t.svc.cards,
      (c) => c.length >= 2 && c.some((x) => x.occurrence_count === 2),
    );
    await new Promise((r) => setTimeout(r, 2500)); // one more drain cadence: nothing else arrives
    const after = await t.svc.cards();
    expect(after).toHaveLength(2);
    const byTitle = Object.fromEntries(cards.map((c) => [c.title, c]));
    const boomTitle = 'RangeError: Server route exploded (GET /api/boom)';
    // `Item 42 failed to load` and `Item 7 failed to load`: one throw site, messages differing
    // only in an id, so one card.
    const itemTitle = 'Error: Item <n> failed to load (GET /api/items/:id)';
    expect(Object.keys(byTitle).sort()).toEqual([itemTitle, boomTitle].sort());
    expect(byTitle[itemTitle]!.occurrence_count).toBe(2);
    const boom = byTitle[boomTitle]!;
    expect(boom.severity).toBe('major');
    expect(boom.description).toContain('RangeError');
    expect(boom.description).toContain('Server route exploded');
    // Nitro's on-disk maps lead back to the original TypeScript route file, relative to the app.
    expect(boom.file_name).toBe('server/api/boom.get.ts');
    expect(boom.tags).toEqual(
      expect.arrayContaining(['nuxt', 'server', 'server-error', 'method:GET', 'env:example']),
    );
    // The private run-time keys signed these (the build-time canaries are not valid keys).
    expect(t.app.output()).not.toContain(t.svc.keys.signingSecret);
  });

  it('an error while rendering a page is titled by the Vue route pattern', async () => {
    const started = await startApp(t.svc.url, t.svc.keys);
    t.app = started.app;
    expect((await fetch(`${started.base}/orders/7`)).status).toBe(500);
    const cards = await until(t.svc.cards, (c) => c.length > 0);
    expect(cards.map((c) => c.title)).toEqual([
      'Error: Order <n> failed to render (GET /orders/:id)',
    ]);
    expect(cards[0]!.description).toContain('Order 7 failed to render');
    // Nitro's maps, chained at build time through Vite's SSR maps, name the page itself.
    expect(cards[0]!.file_name).toBe('app/pages/orders/[id].vue');
    const frames = String(cards[0]!.description)
      .split('\n')
      .filter((l) => /^\s+at /.test(l));
    expect(frames[0]).toMatch(/^ {4}at .*\(app\/pages\/orders\/\[id\]\.vue:\d+:\d+\)$/);
  });

  it('an unhandled rejection outside a request makes a card; the server keeps serving', async () => {
    const started = await startApp(t.svc.url, t.svc.keys);
    t.app = started.app;
    expect((await fetch(`${started.base}/api/background`)).status).toBe(200);
    const cards = await until(t.svc.cards, (c) => c.length > 0);
    expect(cards.map((c) => c.title)).toEqual([
      'Error: Background job failed (unhandled rejection)',
    ]);
    expect(cards[0]).toMatchObject({ severity: 'critical', priority: 'high' });
    expect(cards[0]!.tags).toEqual(
      expect.arrayContaining(['nuxt', 'server', 'unhandled-rejection', 'env:example']),
    );
    expect(cards[0]!.description).toContain('Background job failed');
    expect((await fetch(`${started.base}/api/boom`)).status).toBe(500);
  });

  it('runtime-config options reach the SDK: encryption with the project key, or no card', async () => {
    // A key the service does not hold: it cannot decrypt (422), so no card proves encryption ran.
    const foreign = Buffer.alloc(32, 7).toString('base64');
    const started = await startApp(t.svc.url, t.svc.keys, {
      NUXT_PUBLIC_SERVICE_ENCRYPTION_PUBLIC_KEY: foreign,
    });
    t.app = started.app;
    expect((await fetch(`${started.base}/api/boom`)).status).toBe(500);
    await new Promise((r) => setTimeout(r, 4000)); // two drain cadences
    expect(await t.svc.cards()).toEqual([]);
    t.app.kill('SIGKILL');
    await t.app.exited;

    const again = await startApp(t.svc.url, t.svc.keys, {
      NUXT_PUBLIC_SERVICE_ENCRYPTION_PUBLIC_KEY: t.svc.keys.encryptionPublicKey,
      NUXT_PUBLIC_SERVICE_ENCRYPTION_KEY_ID: t.svc.keys.encryptionKeyId,
    });
    t.app = again.app;
    expect((await fetch(`${again.base}/api/boom`)).status).toBe(500);
    const cards = await until(t.svc.cards, (c) => c.length > 0);
    expect(cards.map((c) => c.title)).toEqual([
      'RangeError: Server route exploded (GET /api/boom)',
    ]);
  });

  it('SIGTERM with reports still queued: all are delivered before the process exits', async () => {
    // A 10-minute drain cadence keeps every report queued until shutdown.
    const started = await startApp(t.svc.url, t.svc.keys, {
      NUXT_PUBLIC_SVC_FLUSH_INTERVAL_MS: '600000',
    });
    t.app = started.app;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => fetch(`${started.base}/api/items/${i}`)),
    );
    expect(await t.svc.cards()).toEqual([]);
    t.app.kill('SIGTERM');
    await t.app.exited;
    const cards = await t.svc.cards();
    expect(cards).toHaveLength(1);
    expect(cards[0]!.occurrence_count).toBe(20);
  });

  it('SIGTERM with Nitro graceful shutdown disabled: flushes, then still terminates', async () => {
    const started = await startApp(t.svc.url, t.svc.keys, {
      NUXT_PUBLIC_SVC_FLUSH_INTERVAL_MS: '600000',
      NITRO_SHUTDOWN_DISABLED: '1',
    });
    t.app = started.app;
    await Promise.all(Array.from({ length: 5 }, (_, i) => fetch(`${started.base}/api/items/${i}`)));
    t.app.kill('SIGTERM');
    expect(await t.app.exited).toBe('SIGTERM');
    expect((await t.svc.cards())[0]?.occurrence_count).toBe(5);
  });
});

describe('keys', () => {
  it('no private key under .output/public, though the build knew one; none in served pages', async () => {
    // The canary secret really was baked into the server build (so the check below can fail)...
    expect(await filesContaining(`${OUTPUT}/server`, [CANARY.signingSecret])).not.toEqual([]);
    // ...and is nowhere in the public assets.
    expect(await filesContaining(`${OUTPUT}/public`, [CANARY.signingSecret, CANARY.keyId])).toEqual(
      [],
    );
    const started = await startApp(t.svc.url, t.svc.keys);
    t.app = started.app;
    const html = await (await fetch(`${started.base}/`)).text();
    expect(html).toContain(t.svc.keys.apiKey); // the run-time publishable key, not the canary
    expect(html).not.toContain(CANARY.apiKey);
    for (const secret of [
      t.svc.keys.signingSecret,
      t.svc.keys.keyId,
      CANARY.signingSecret,
      CANARY.keyId,
    ]) {
      expect(html).not.toContain(secret);
    }
  });
});
