// The app `create-next-app` makes today, outside the repository, set up as the README says. Made
// once per test run in the directory the global setup (./setup.ts) provides, by the first test
// file that asks for it; the next files find it ready.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { readme } from './readme.ts';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const APP_FILES = fileURLToPath(new URL('./app-files/', import.meta.url));
/** The packages the app installs, packed with `npm pack` (the runtime first: @svc/next needs it). */
const PACKAGES = ['runtime', 'integrations/next'];

export interface FreshApp {
  dir: string;
  /** What each step took, in ms. */
  timings: Record<string, number>;
}

async function sh(command: string, args: string[], cwd: string): Promise<string> {
  const { stdout, stderr } = await run(command, args, { cwd, maxBuffer: 1 << 26 });
  return stdout + stderr;
}

/**
 * `npx create-next-app@16.4.3 app --yes` (the README's first command, with `--skip-install
 * --disable-git`), then the README's steps: the packed tarballs installed instead of
 * `npm install @svc/next` from the registry, `npx svc-next init`, the two next.config.ts lines;
 * then the pages that fail (./app-files) and the README's error.tsx in app/checkout.
 */
async function create(root: string): Promise<FreshApp> {
  const timings: Record<string, number> = {};
  const step = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const start = Date.now();
    const result = await work();
    timings[name] = Date.now() - start;
    return result;
  };
  const dir = join(root, 'app');
  // The README's `cd my-app` is this function's `dir`.
  const [createCommand, installCommand, initCommand] = readme
    .setupCommands()
    .filter((command) => !command.startsWith('cd '));
  const createArgs = createCommand!.split(/\s+/).slice(1); // npx create-next-app@x my-app --yes
  const appArg = createArgs.findIndex(
    (a) => !a.startsWith('-') && !a.startsWith('create-next-app'),
  );
  createArgs[appArg] = 'app';
  await step('create-next-app', () =>
    sh('npx', ['--yes', ...createArgs, '--skip-install', '--disable-git', '--use-npm'], root),
  );
  if (!installCommand?.startsWith('npm install @svc/next'))
    throw new Error(`README: unexpected install step: ${installCommand}`);
  const tarballs = join(root, 'tarballs');
  mkdirSync(tarballs);
  await step('npm pack', async () => {
    for (const pkg of PACKAGES)
      await sh('npm', ['pack', '--pack-destination', tarballs], join(REPO, pkg));
  });
  const packed = readdirSync(tarballs).map((file) => join(tarballs, file));
  await step('npm install', () =>
    sh(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...packed],
      dir,
    ),
  );
  if (initCommand !== 'npx svc-next init') throw new Error(`README: unexpected ${initCommand}`);
  await step('svc-next init', () => sh(join(dir, 'node_modules/.bin/svc-next'), ['init'], dir));
  applyConfigLines(join(dir, 'next.config.ts'));
  cpSync(APP_FILES, dir, { recursive: true });
  writeFileSync(join(dir, 'app/checkout/error.tsx'), readme.errorBoundary());
  writeFileSync(join(dir, '.svc-ready'), JSON.stringify(timings));
  return { dir, timings };
}

/** Adds the README's import after the template's imports and wraps its `export default`. */
function applyConfigLines(file: string): void {
  const { importLine, exportLine } = readme.configLines();
  const lines = readFileSync(file, 'utf8').split('\n');
  const lastImport = lines.findLastIndex((l) => l.startsWith('import '));
  const exported = lines.indexOf('export default nextConfig;');
  if (lastImport < 0 || exported < 0) throw new Error(`unexpected template next.config.ts`);
  lines[exported] = exportLine;
  lines.splice(lastImport + 1, 0, importLine);
  writeFileSync(file, lines.join('\n'));
}

/** The shared fresh app under `root`: made now if no earlier test file made it. */
export async function freshApp(root: string): Promise<FreshApp> {
  const marker = join(root, 'app', '.svc-ready');
  if (existsSync(marker)) {
    return { dir: join(root, 'app'), timings: JSON.parse(readFileSync(marker, 'utf8')) };
  }
  return create(root);
}
