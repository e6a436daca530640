import { launchChromium, useServiceAndApp } from '@svc/testkit';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANARY, startApp, until } from './build';

// Real Chromium through playwright-core. The page posts to the local reference service, set at run
// time with NUXT_PUBLIC_SERVICE_URL.
const t = useServiceAndApp();
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

async function openPage(env: Record<string, string> = {}) {
  const started = await startApp(t.svc.url, t.svc.keys, env);
  t.app = started.app;
  const page = await browser.newPage();
  const requests: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(t.svc.url) && r.method() === 'POST')
      requests.push(r.headers().authorization ?? '');
  });
  await page.goto(`${started.base}/`, { waitUntil: 'networkidle' });
  return { page, requests };
}

describe('examples/nuxt in Chromium, against the reference service', () => {
  it('a clicked client error makes a card, with the run-time publishable key', async () => {
    const { page, requests } = await openPage();
    await page.click('#explode');
    const cards = await until(t.svc.cards, (c) => c.length > 0);
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({
      title: 'TypeError: Button exploded in the browser (Vue component)',
      severity: 'major',
    });
    expect(cards[0]!.description).toContain('Button exploded in the browser');
    expect(cards[0]!.tags).toEqual(
      expect.arrayContaining(['nuxt', 'browser', 'error-boundary', 'env:example']),
    );
    // The key baked at build time (the canary) was replaced by the one given at run time.
    expect(requests).toEqual([`Bearer ${t.svc.keys.apiKey}`]);
    expect(requests.join()).not.toContain(CANARY.apiKey);
    // Nuxt's own error handling still ran: the app is alive and counted the click.
    expect(await page.textContent('#clicks')).toBe('clicks: 1');
    await page.close();
  });

  it('hidden source maps resolve the card to the original .vue file', async () => {
    const { page } = await openPage();
    // The module registered every hidden map for the runtime's resolver: pathname -> map URL.
    const registry = await page.evaluate(() => (globalThis as any)[Symbol.for('svc.sourcemaps')]);
    const entries = Object.entries(registry as Record<string, string>);
    expect(entries.length).toBeGreaterThan(1);
    for (const [chunk, map] of entries) expect(map).toMatch(new RegExp(`${chunk}\\.map$`));
    const map = await (await fetch(entries[0]![1])).json();
    expect(map.version).toBe(3);
    await page.click('#explode');
    const cards = await until(t.svc.cards, (c) => c.length > 0);
    expect(cards[0]!.file_name).toMatch(/(^|\/)app\/pages\/index\.vue$/);
    await page.close();
  });

  it('a NuxtError 404 is skipped; reports wait for the page to be hidden, then flush', async () => {
    // A 10-minute drain cadence: only the flush on `visibilitychange` can send the report.
    const { page, requests } = await openPage({ NUXT_PUBLIC_SVC_FLUSH_INTERVAL_MS: '600000' });
    await page.click('#not-found');
    await page.click('#explode');
    await new Promise((r) => setTimeout(r, 1000));
    expect(requests).toEqual([]); // still queued
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    const cards = await until(t.svc.cards, (c) => c.length > 0);
    await new Promise((r) => setTimeout(r, 1000)); // a reported 404 would have come in the same flush
    expect((await t.svc.cards()).map((c) => c.title)).toEqual([
      'TypeError: Button exploded in the browser (Vue component)',
    ]);
    expect(cards[0]!.description).toContain('Button exploded');
    expect(requests).toHaveLength(1);
    await page.close();
  });
});
