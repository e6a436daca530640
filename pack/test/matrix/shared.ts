// What every framework's matrix file shares: the packed tarballs, a directory outside the
// repository, the one set of variables every app is given, the reference service, and Chromium.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { publicVariable, type PublicFramework } from '@svc/runtime/kit';
import { startTestService, type TestService } from '@svc/server/testing';
import { freePort, launchChromium, REPO_ROOT, userEnv } from '@svc/testkit';

export { freePort };
import type { Browser, Page } from 'playwright-core';
import { inject } from 'vitest';

export { REPO_ROOT };
export type { TestService };

/** The release every app is built and run with; its tag is on every card. */
export const RELEASE = 'matrix@1';

/** Package name -> packed tarball (pack's global setup packs every public package once). */
export function tarballs(): Record<string, string> {
  return Object.fromEntries(inject('fresh').packed.map((p) => [p.name, p.tarball]));
}

/** A fresh directory outside the repository; removed by `done()` unless `SVC_MATRIX_KEEP` is set. */
export function scratch(framework: string): { dir: string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `svc-matrix-${framework}-`));
  return {
    dir,
    done: () => {
      if (!process.env.SVC_MATRIX_KEEP) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The reference service of one app's run, with the data dir its operator commands read. */
export type MatrixService = Awaited<ReturnType<typeof service>>;

/** A reference service on 127.0.0.1 with its own data dir (`svc-server sourcemaps list` reads it). */
export async function service(): Promise<TestService & { dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-matrix-service-'));
  const svc = await startTestService({ dataDir });
  return {
    ...svc,
    dataDir,
    async close() {
      await svc.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The environment of every app's build and server: the same `SERVICE_*` variables (address,
 * secret key, environment, release) for every framework, and the framework's public variable of
 * the publishable key for its browser side (`VITE_SERVICE_API_KEY`...). Nothing else: the
 * address, environment and release reach each browser the way the framework's integration says.
 */
export function appEnv(svc: TestService, framework?: PublicFramework): NodeJS.ProcessEnv {
  return userEnv({
    SERVICE_URL: svc.url,
    SERVICE_KEY_ID: svc.keys.keyId,
    SERVICE_SIGNING_SECRET: svc.keys.signingSecret,
    SERVICE_ENVIRONMENT: 'production',
    SERVICE_RELEASE: RELEASE,
    ...(framework ? { [publicVariable(framework, 'apiKey')]: svc.keys.apiKey } : {}),
  });
}

/** Polls `read` until `done` holds or `ms` passes; returns the last value either way. */
export async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 30_000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
}

let browser: Browser | undefined;

/** Opens `url` in (one shared) Chromium; the page's console is collected. */
export async function openPage(url: string): Promise<{ page: Page; console: string[] }> {
  browser ??= await launchChromium();
  const page = await browser.newPage();
  const lines: string[] = [];
  page.on('console', (message) => lines.push(message.text()));
  await page.goto(url, { waitUntil: 'networkidle' });
  return { page, console: lines };
}

/** Clicks `selector` on a fresh page of `url`; the page stays open (its queue drains) until closed. */
export async function clickOn(url: string, selector: string): Promise<Page> {
  const { page } = await openPage(url);
  await page.click(selector);
  return page;
}

export async function closeBrowser(): Promise<void> {
  await browser?.close();
  browser = undefined;
}
