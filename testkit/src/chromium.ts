import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

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

/** Where the Chromium of the tests comes from; never a browser downloaded by Playwright. */
export interface ChromiumFound {
  path: string;
  source: '$CHROMIUM_PATH' | '/usr/bin/chromium' | '@sparticuz/chromium';
}

const SPARTICUZ = '@sparticuz/chromium';

/**
 * The Chromium inside the `@sparticuz/chromium` npm package, unpacked once per machine into
 * `<tmpdir>/svc-chromium-<version>/`. The package unpacks into `os.tmpdir()` non-atomically, so it
 * runs in a child process whose TMPDIR is a fresh staging folder, which is then renamed into place
 * (a concurrent test worker that loses the race uses the winner's copy).
 */
function sparticuzChromium(): string {
  // The package exports no ./package.json: read it next to its resolved entry (build/index.js).
  const entry = createRequire(import.meta.url).resolve(SPARTICUZ);
  const { version } = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8'));
  const dir = join(tmpdir(), `svc-chromium-${version}`);
  const binary = join(dir, 'chromium');
  if (existsSync(binary)) return binary;
  const staging = mkdtempSync(join(tmpdir(), 'svc-chromium-staging-'));
  try {
    execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `await (await import('${SPARTICUZ}')).default.executablePath()`,
      ],
      { env: { ...process.env, TMPDIR: staging }, cwd: import.meta.dirname, stdio: 'pipe' },
    );
    renameSync(staging, dir);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(binary)) throw error;
  }
  return binary;
}

/** `$CHROMIUM_PATH`, else Debian's `/usr/bin/chromium`, else the one in `@sparticuz/chromium`. */
export function findChromium(env: Record<string, string | undefined> = process.env): ChromiumFound {
  if (env.CHROMIUM_PATH) return { path: env.CHROMIUM_PATH, source: '$CHROMIUM_PATH' };
  if (existsSync('/usr/bin/chromium'))
    return { path: '/usr/bin/chromium', source: '/usr/bin/chromium' };
  return { path: sparticuzChromium(), source: SPARTICUZ };
}

let found: ChromiumFound | undefined;

/** The Chromium executable of this test run (found once per process, printed once). */
export function chromiumPath(): string {
  if (!found) {
    found = findChromium();
    console.log(`[testkit] Chromium: ${found.path} (from ${found.source})`);
  }
  return found.path;
}

export async function launchChromium(): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  console.log(`[testkit] Chromium ${browser.version()} launched`);
  return browser;
}
