// Apps made by a framework's own generator, outside the repository, set up with the steps a README
// shows, the repository's packages installed from packed tarballs: what a new user gets. One home
// for every fresh-app suite (pack's cross-framework matrix, @svc/next's create-next-app suite).
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** The repository's root. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A command's combined output; throws with it when the command fails. */
export async function sh(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  try {
    const { stdout, stderr } = await exec(command, [...args], { cwd, env, maxBuffer: 1 << 26 });
    return `${stdout}${stderr}`;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${stdout}${stderr}`);
  }
}

/** `npm pack` of each workspace folder (`runtime`, `integrations/next`) into `dest`, in order. */
export async function packWorkspaces(
  folders: readonly string[],
  dest: string,
): Promise<Record<string, string>> {
  mkdirSync(dest, { recursive: true });
  const tarballs: Record<string, string> = {};
  for (const folder of folders) {
    const out = await sh(
      'npm',
      ['pack', '--json', '--pack-destination', dest],
      join(REPO_ROOT, folder),
    );
    const [info] = JSON.parse(out.slice(out.indexOf('[')));
    tarballs[info.name] = join(dest, info.filename);
  }
  return tarballs;
}

/**
 * The tarballs to install for `names`: each one's, and those of the packages of `tarballs` it
 * depends on, transitively (what the registry would have given: `@svc/express` needs
 * `@svc/runtime`).
 */
export async function withSiblings(
  names: readonly string[],
  tarballs: Record<string, string>,
): Promise<string[]> {
  const wanted = new Set<string>();
  const visit = async (name: string) => {
    if (wanted.has(name) || !tarballs[name]) return;
    wanted.add(name);
    const manifest = JSON.parse(
      await sh('tar', ['-xzOf', tarballs[name]!, 'package/package.json'], REPO_ROOT),
    );
    for (const dependency of Object.keys(manifest.dependencies ?? {})) await visit(dependency);
  };
  for (const name of names) await visit(name);
  return [...wanted].map((name) => tarballs[name]!);
}

/** The packages npm warned about for their `engines` (`cookie@2.0.2`), from npm's output. */
export function badEngines(npmOutput: string): string[] {
  return [...npmOutput.matchAll(/EBADENGINE\s+package: '([^']+)'/g)].map((m) => m[1]!);
}

/** The user's environment for npm and generators: no test runner variables, no telemetry. */
export function userEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const runner = (key: string) =>
    key === 'NODE_ENV' || key === 'NODE_OPTIONS' || key.startsWith('VITEST') || key === 'TEST';
  const shell = Object.entries(process.env).filter(([key]) => !runner(key));
  // A shell has no NODE_ENV, which Next's declaration of ProcessEnv requires.
  return {
    ...Object.fromEntries(shell),
    NEXT_TELEMETRY_DISABLED: '1',
    NUXT_TELEMETRY_DISABLED: '1',
    ...extra,
  } as unknown as NodeJS.ProcessEnv;
}

export interface SetupOptions {
  /** Where the commands start (the README's "current directory"); outside the repository. */
  cwd: string;
  /** Package name -> tarball: `npm install @svc/next` installs the tarball instead. */
  tarballs: Record<string, string>;
  /** Flags added to a generator command to run it without prompts (`--no-interactive`). */
  generatorFlags?: Record<string, readonly string[]>;
  /** The app directory a README calls `my-app`, renamed (`vite-app`). */
  appName?: { from: string; to: string };
  /** Environment of every command. @default userEnv() */
  env?: NodeJS.ProcessEnv;
}

export interface SetupResult {
  /** The directory the commands ended in (the app). */
  dir: string;
  /** Every command's output, by command. */
  outputs: { command: string; output: string; ms: number }[];
  /** Packages npm warned about for their `engines`, over every install. */
  badEngines: string[];
}

/** The commands of a README's shell block: one per line (or `&&`), comments and blanks dropped. */
export function commandLines(block: string): string[] {
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#\s.*$/, '').trim())
    .filter((line) => line && !line.startsWith('#'))
    .flatMap((line) => line.split(/\s*&&\s*/));
}

/**
 * Runs a README's setup commands as a user would, in `cwd`: `mkdir` and `cd`, a generator
 * (`npx create-vite@9.3.0 my-app ...`, with `generatorFlags` so it asks nothing), `npm pkg set`,
 * `npm install` (the `@svc/*` packages from their tarballs, `--prefer-offline`), `npx <bin>`
 * (the app's own bin). Anything else is refused, so a README step the test cannot follow fails.
 */
export async function runSetup(
  commands: readonly string[],
  options: SetupOptions,
): Promise<SetupResult> {
  const env = options.env ?? userEnv();
  let dir = options.cwd;
  const outputs: SetupResult['outputs'] = [];
  const rename = (word: string) =>
    options.appName && word === options.appName.from ? options.appName.to : word;
  for (const command of commands) {
    const words = command.split(/\s+/).map(rename);
    const [program, ...args] = words as [string, ...string[]];
    const started = Date.now();
    let output = '';
    if (program === 'mkdir') {
      for (const arg of args.filter((a) => !a.startsWith('-')))
        mkdirSync(resolve(dir, arg), { recursive: true });
    } else if (program === 'cd') {
      dir = isAbsolute(args[0]!) ? args[0]! : resolve(dir, args[0]!);
    } else if (program === 'npm' && args[0] === 'install') {
      const ours = args.slice(1).filter((spec) => options.tarballs[spec]);
      const others = args.slice(1).filter((spec) => !options.tarballs[spec]);
      const specs = [...others, ...(await withSiblings(ours, options.tarballs))];
      output = await sh(
        'npm',
        ['install', '--prefer-offline', '--no-audit', '--no-fund', ...specs],
        dir,
        env,
      );
    } else if (program === 'npm' && (args[0] === 'pkg' || args[0] === 'init')) {
      output = await sh('npm', args, dir, env);
    } else if (program === 'npx' && args[0]?.includes('@')) {
      // A generator, pinned by version: `npx create-next-app@16.4.3 my-app --yes`.
      const name = args[0].replace(/@[^@]*$/, '');
      const flags = options.generatorFlags?.[name] ?? [];
      output = await sh('npx', ['--yes', ...args, ...flags], dir, env);
    } else if (program === 'npx') {
      output = await sh(join(dir, 'node_modules', '.bin', args[0]!), args.slice(1), dir, env);
    } else {
      throw new Error(`README step the test cannot follow: ${command}`);
    }
    outputs.push({ command, output, ms: Date.now() - started });
  }
  return { dir, outputs, badEngines: outputs.flatMap((o) => badEngines(o.output)) };
}
