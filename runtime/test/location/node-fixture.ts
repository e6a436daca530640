// Builds the Node fixture app in a temp dir: tsc output, esbuild bundles, and the location module.
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, realpath, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';

const run = promisify(execFile);
const here = fileURLToPath(new URL('.', import.meta.url));
const require = createRequire(import.meta.url);

export interface NodeFixture {
  dir: string;
  /** Compiled entry of each build: tsc (linked maps), esbuild inline map, esbuild external map. */
  entries: Record<'tsc' | 'esbuildInline' | 'esbuildExternal', string>;
  /** 1-based line of the `// @marker` comment in a fixture source file. */
  line(file: string, marker: string): Promise<number>;
}

export async function buildNodeFixture(): Promise<NodeFixture> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'svc-location-node-')));
  await cp(join(here, 'fixtures/node-app'), dir, { recursive: true });
  await cp(join(dir, 'deps/dep-lib'), join(dir, 'node_modules/dep-lib'), { recursive: true });
  // This checkout's location capture, installed like an SDK package (its frames are SDK frames).
  await build({
    entryPoints: [join(here, '../../src/location/node.ts')],
    outfile: join(dir, 'node_modules/@svc/location-under-test/dist/location.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
  });
  // The real client, linked as npm links a workspace (its built dist/, like an installed package).
  await symlink(join(here, '../..'), join(dir, 'node_modules/@svc/runtime'), 'dir');
  await run(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', dir]);
  const bundle = (outdir: string, sourcemap: 'inline' | 'external') =>
    build({
      entryPoints: [join(dir, 'src/index.ts')],
      outdir: join(dir, outdir),
      bundle: true,
      platform: 'node',
      format: 'esm',
      sourcemap,
      logLevel: 'silent',
    });
  await bundle('dist/esbuild-inline', 'inline');
  await bundle('dist/esbuild-external', 'external');
  return {
    dir,
    entries: {
      tsc: join(dir, 'dist/tsc/index.js'),
      esbuildInline: join(dir, 'dist/esbuild-inline/index.js'),
      esbuildExternal: join(dir, 'dist/esbuild-external/index.js'),
    },
    async line(file, marker) {
      const lines = (await readFile(join(dir, file), 'utf8')).split('\n');
      const index = lines.findIndex((l) => l.includes(`// @${marker}`));
      if (index === -1) throw new Error(`marker @${marker} not in ${file}`);
      return index + 1;
    },
  };
}

/**
 * The app as another host deploys it: copied to `dir`, bundled by esbuild minified with on-disk maps
 * and content-hashed chunk names (`index-[hash].js`, `chunk-[hash].js`); `build` goes into a banner
 * comment, so each build has other hashes. Returns the bundled entry.
 */
export async function buildMinifiedHost(dir: string, buildId: string): Promise<string> {
  await cp(join(here, 'fixtures/node-app'), dir, { recursive: true });
  await cp(join(dir, 'deps/dep-lib'), join(dir, 'node_modules/dep-lib'), { recursive: true });
  await mkdir(join(dir, 'node_modules/@svc'), { recursive: true });
  await symlink(join(here, '../..'), join(dir, 'node_modules/@svc/runtime'), 'dir');
  const out = await build({
    entryPoints: [join(dir, 'src/index.ts'), join(dir, 'src/handler.ts')],
    outdir: join(dir, 'dist/min'),
    entryNames: '[name]-[hash]',
    bundle: true,
    splitting: true,
    minify: true,
    platform: 'node',
    format: 'esm',
    sourcemap: 'external',
    banner: { js: `/* build ${buildId} */` },
    metafile: true,
    logLevel: 'silent',
  });
  const entry = Object.keys(out.metafile.outputs).find((file) => /index-\w+\.js$/.test(file));
  if (!entry) throw new Error('no bundled index');
  return join(dir, entry.slice(entry.indexOf('dist/min/')));
}

/** Runs `describe-runner.mjs` (real client) on a bundled entry from `cwd`; its payloads and result. */
export async function runDescribe(
  dir: string,
  entry: string,
  cwd: string,
  env: Record<string, string>,
) {
  await mkdir(cwd, { recursive: true });
  const { stdout } = await run(process.execPath, [join(dir, 'describe-runner.mjs'), entry], {
    cwd,
    env: { ...process.env, ...env },
  });
  const lines = stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  return {
    payloads: lines.filter((l) => l.payload).map((l) => l.payload),
    flushed: lines.find((l) => l.flushed)?.flushed,
  };
}

/** Runs `client-runner.mjs` (real client) with `env` (`SERVICE_URL`...); returns its flush result. */
export async function runClient(fixture: NodeFixture, entry: string, env: Record<string, string>) {
  const { stdout } = await run(process.execPath, [join(fixture.dir, 'client-runner.mjs'), entry], {
    cwd: tmpdir(),
    env: { ...process.env, ...env },
  });
  return JSON.parse(stdout.trim().split('\n').pop() as string);
}

/** Runs `runner.mjs` on a compiled entry in a child process from `cwd`; returns its JSON. */
export async function runFixture(fixture: NodeFixture, entry: string, cwd: string) {
  await mkdir(cwd, { recursive: true });
  const { stdout } = await run(process.execPath, [join(fixture.dir, 'runner.mjs'), entry], { cwd });
  return JSON.parse(stdout.trim().split('\n').pop() as string);
}
