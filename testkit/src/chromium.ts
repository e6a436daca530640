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
 * The version of package `name` whose entry file is `entry`. The package exports no
 * `./package.json`, and its entry moved between releases (`build/index.js`, then
 * `build/cjs/index.cjs` beside a `package.json` of its own that has no name): the package's file is
 * the nearest one above the entry that carries the package's name.
 */
export function packageVersion(entry: string, name: string): string {
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8'));
    if (manifest.name === name) return manifest.version;
  }
  throw new Error(`no package.json of ${name} above ${entry}`);
}

/**
 * The Chromium inside the `@sparticuz/chromium` npm package, unpacked once per machine into
 * `<tmpdir>/svc-chromium-<version>/`. The package unpacks into `os.tmpdir()` non-atomically, so it
 * runs in a child process whose TMPDIR is a fresh staging folder, which is then renamed into place
 * (a concurrent test worker that loses the race uses the winner's copy).
 */
function sparticuzChromium(): string {
  const version = packageVersion(createRequire(import.meta.url).resolve(SPARTICUZ), SPARTICUZ);
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

/** Debian's Chromium. */
export const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/**
 * `$CHROMIUM_PATH`, else Debian's `/usr/bin/chromium`, else the one in `@sparticuz/chromium`
 * (`systemChromium` is where Debian's is looked for: a test hides it by naming a missing file).
 */
export function findChromium(
  env: Record<string, string | undefined> = process.env,
  systemChromium: string = SYSTEM_CHROMIUM,
): ChromiumFound {
  if (env.CHROMIUM_PATH) return { path: env.CHROMIUM_PATH, source: '$CHROMIUM_PATH' };
  if (existsSync(systemChromium)) return { path: systemChromium, source: '/usr/bin/chromium' };
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

/** Chromium through playwright-core: this run's (`chromiumPath()`), or the executable given. */
export async function launchChromium(executablePath = chromiumPath()): Promise<Browser> {
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  console.log(`[testkit] Chromium ${browser.version()} launched`);
  return browser;
}
