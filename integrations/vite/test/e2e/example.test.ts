import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { startTestService } from '@svc/server/testing';
import { launchChromium, spawnProcess, type Spawned } from '@svc/testkit';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// examples/vite built with the real `vite build`, served with `vite preview` on a random port, and
// driven in Chromium; reports go to the real reference service set as VITE_SERVICE_URL at build.
const EXAMPLE = fileURLToPath(new URL('../../../../examples/vite/', import.meta.url));
const VITE = fileURLToPath(new URL('../../../../node_modules/vite/bin/vite.js', import.meta.url));

type Service = Awaited<ReturnType<typeof startTestService>>;
type Card = Awaited<ReturnType<Service['cards']>>[number];
let svc: Service;
let preview: Spawned | undefined;
let browser: Browser | undefined;
let outDir: string;
let base: string;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

async function cardsWhen(done: (cards: Card[]) => boolean, timeoutMs = 30_000): Promise<Card[]> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const cards = await svc.cards();
    if (done(cards) || Date.now() > end) return cards;
    await new Promise((r) => setTimeout(r, 250));
  }
}

beforeAll(async () => {
  svc = await startTestService();
  outDir = mkdtempSync(join(tmpdir(), 'svc-vite-example-'));
  const env = {
    ...process.env,
    NO_COLOR: '1',
    NODE_ENV: 'production', // vitest sets NODE_ENV=test, which would make vite build React's dev build
    VITE_SERVICE_API_KEY: svc.keys.apiKey,
    VITE_SERVICE_URL: svc.url,
    SERVICE_RELEASE: 'shop@2.0.0',
    // Server credentials present in the build environment: the leak guard must find them absent.
    SERVICE_KEY_ID: svc.keys.keyId,
    SERVICE_SIGNING_SECRET: svc.keys.signingSecret,
  };
  const build = spawnProcess(
    process.execPath,
    [VITE, 'build', '--outDir', outDir, '--emptyOutDir'],
    {
      cwd: EXAMPLE,
      env,
    },
  );
  const code = await build.exited;
  if (code !== 0) throw new Error(`vite build failed (${code}):\n${build.output()}`);
  preview = spawnProcess(
    process.execPath,
    [VITE, 'preview', '--outDir', outDir, '--host', '127.0.0.1', '--port', '0', '--strictPort'],
    { cwd: EXAMPLE, env },
  );
  [, base] = (await preview.waitFor(/Local:\s+(http:\/\/127\.0\.0\.1:\d+\/)/)) as [string, string];
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  preview?.kill();
  await preview?.exited;
  await svc?.close();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

async function openPage() {
  const page = await browser!.newPage();
  await page.goto(base);
  await page.waitForSelector('#place-order');
  return page;
}

describe('examples/vite in Chromium against the reference service', () => {
  it('clicking the button makes a card carrying the original source path', async () => {
    const page = await openPage();
    await page.click('#place-order');
    const title = 'Error: Checkout failed: payment provider rejected the order (browser)';
    const cards = await cardsWhen((c) => c.some((x) => x.title === title));
    await page.close();
    const card = cards.find((x) => x.title === title)!;
    expect(card).toMatchObject({
      title,
      severity: 'major',
      priority: 'medium',
    });
    expect(card.tags).toEqual(
      expect.arrayContaining([
        'vite',
        'browser',
        'browser-error',
        'env:production',
        'release:shop@2.0.0',
      ]),
    );
    // Through the hidden map registered by the plugin, not the built chunk's path.
    expect(card.file_name).toBe('src/App.tsx');
  });

  it('a render error is caught by SvcErrorBoundary and reported', async () => {
    const page = await openPage();
    await page.click('#show-receipt');
    await page.waitForSelector('text=Something broke; it has been reported.');
    const title = 'Error: Receipt template is missing (React component)';
    const cards = await cardsWhen((c) => c.some((x) => x.title === title));
    await page.close();
    const card = cards.find((x) => x.title === title)!;
    expect(card.tags).toEqual(expect.arrayContaining(['vite', 'browser', 'error-boundary']));
    // Caught by the boundary, so not reported a second time as an uncaught window error.
    expect(cards.filter((x) => x.title.includes('Receipt template'))).toHaveLength(1);
  });

  it('two errors of one throw site that differ only in an id make one card', async () => {
    const page = await openPage();
    await page.click('#cancel-order');
    await page.click('#cancel-order');
    const title = 'Error: Order <n> cannot be cancelled (browser)';
    const cards = await cardsWhen((c) =>
      c.some((x) => x.title === title && x.occurrence_count === 2),
    );
    await page.close();
    expect(cards.filter((x) => x.title.includes('cannot be cancelled'))).toMatchObject([
      { title, occurrence_count: 2 },
    ]);
  });

  it('the built files contain no server secret', () => {
    const all = files(outDir);
    expect(all.some((f) => f.endsWith('.js'))).toBe(true);
    for (const file of all) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toContain(svc.keys.signingSecret);
      expect(text, file).not.toContain(svc.keys.keyId);
      expect(text, file).not.toMatch(/svc_sec_[A-Za-z0-9]{16,}/);
    }
    // The publishable key is expected in the client, and only it.
    expect(all.some((f) => readFileSync(f, 'utf8').includes(svc.keys.apiKey))).toBe(true);
  });

  it('bundle-size budget: the example loads under 90 KB gzip of JS (React included)', () => {
    const html = readFileSync(join(outDir, 'index.html'), 'utf8');
    const js = files(outDir).filter((f) => f.endsWith('.js'));
    const sizes = js.map((f) => ({
      file: f.slice(outDir.length + 1),
      gzip: gzipSync(readFileSync(f)).length,
    }));
    // Loaded at start: the entry script and its modulepreloads (the registry lists every chunk, so
    // look for the tags, not the names).
    const loaded = (f: string) => html.includes(`src="/${f}"`) || html.includes(`href="/${f}"`);
    const initial = sizes.filter((s) => loaded(s.file)).reduce((n, s) => n + s.gzip, 0);
    console.log(`examples/vite: initial ${initial} B gzip`, sizes);
    expect(initial).toBeGreaterThan(0);
    expect(initial).toBeLessThan(90 * 1024);
  });
});
