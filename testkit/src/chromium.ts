import { chromium, type Browser, type Page } from 'playwright-core';

/** `$CHROMIUM_PATH`, else Debian's Chromium; never a downloaded browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/**
 * Forwards the page's requests for the SDK's fixed service address (`from`) to a local service
 * (`to`). The browser still sends a real request; the test process relays it to 127.0.0.1 and
 * hands the real answer back, CORS headers included.
 */
export async function routeService(page: Page, from: string, to: string): Promise<void> {
  const base = from.replace(/\/$/, '');
  await page.route(`${base}/**`, async (route) => {
    const url = to.replace(/\/$/, '') + route.request().url().slice(base.length);
    try {
      const response = await route.fetch({ url });
      await route.fulfill({ response });
    } catch {
      // The local service is gone, or the page closed while the request was relayed.
      await route.abort('connectionrefused').catch(() => {});
    }
  });
}
