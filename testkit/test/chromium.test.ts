import { accessSync, constants, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { findChromium, launchChromium, SYSTEM_CHROMIUM } from '../src/chromium.ts';

// Where the tests' Chromium comes from: $CHROMIUM_PATH, else Debian's, else the npm package's.
describe('findChromium', () => {
  it('takes $CHROMIUM_PATH first, as given', () => {
    expect(findChromium({ CHROMIUM_PATH: '/opt/chromium/chrome' })).toEqual({
      path: '/opt/chromium/chrome',
      source: '$CHROMIUM_PATH',
    });
  });

  it('else /usr/bin/chromium when installed, else an executable unpacked from @sparticuz/chromium', () => {
    const found = findChromium({});
    console.log(`Chromium of this machine: ${found.path} (from ${found.source})`);
    expect(found.source).toBe(
      existsSync(SYSTEM_CHROMIUM) ? '/usr/bin/chromium' : '@sparticuz/chromium',
    );
    expect(() => accessSync(found.path, constants.X_OK)).not.toThrow();
  });

  // A machine with nothing but Node and npm: Debian's Chromium hidden (looked for at a path that
  // does not exist), the npm package's runs a real page that reads what the server sent.
  it('with no Debian Chromium, the one from @sparticuz/chromium runs a real page', async () => {
    const found = findChromium({}, '/nonexistent/chromium');
    expect(found.source).toBe('@sparticuz/chromium');
    expect(found.path).toMatch(/svc-chromium-\d+\.\d+\.\d+\/chromium$/);
    const server = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end('<p id="answer">42</p><script>document.title = String(6 * 7)</script>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const browser = await launchChromium(found.path);
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      expect(await page.title()).toBe('42');
      expect(await page.textContent('#answer')).toBe('42');
    } finally {
      await browser.close();
      server.close();
    }
  });
});
