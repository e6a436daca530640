// What `npm test` runs on which Node. Every project runs on Node 24 from npm (the active LTS, what
// the current framework majors need); the projects of the published packages whose `engines`
// include this machine's Node run on it too (Node 20 here). The root README says why.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './generated-app.ts';
import { inRange, type TestNode } from './nodes.ts';

/** Each vitest project and the package whose `engines` it tests (`undefined`: Node 24 only). */
export const PROJECTS: Record<string, string | undefined> = {
  codegen: undefined, // a tool of this repository, run by npm test's build on any Node
  runtime: 'runtime',
  // The service's own suites (SQL, HTTP: the same JavaScript on every Node) run on Node 24; on
  // Node 20 the service runs in-process in the runtime's and integrations' suites, and packed,
  // as `svc-server serve`, in pack's test on 20, 22 and 24 (its SQLite driver is what differs).
  server: undefined,
  'server-pg': undefined,
  express: 'integrations/express',
  vite: 'integrations/vite',
  next: 'integrations/next',
  nuxt: 'integrations/nuxt',
  sveltekit: 'integrations/sveltekit',
  'react-router': 'integrations/react-router',
  hono: 'integrations/hono',
  php: undefined, // PHP's suites: the Node running them does not matter
  demo: '.', // what `npm start` runs, on the Node the repository claims
  testkit: undefined,
  pack: undefined, // the matrix on the current frameworks, which need Node 22+
};

/** The `engines.node` range of a package folder of the repository. */
export function enginesOf(folder: string): string {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, folder, 'package.json'), 'utf8'));
  const range = manifest.engines?.node;
  if (!range) throw new Error(`${folder}/package.json has no engines.node`);
  return range;
}

/** The projects that run on `version` besides Node 24: those whose package claims it. */
export function projectsClaiming(version: string): string[] {
  return Object.entries(PROJECTS)
    .filter(([, folder]) => folder !== undefined && inRange(version, enginesOf(folder)))
    .map(([project]) => project);
}

/**
 * Set (to the Node 24 version) in the environment of npm test's legs after its Node 24 leg, which
 * ran every project on the same build: a suite may then leave to that leg what no Node changes
 * (a second bundler's build of the same code), and says so in one line.
 */
export const AFTER_NODE24_LEG = 'SVC_TEST_AFTER_NODE24_LEG';

/** The Node 24 version whose leg ran before this one in the same `npm test`; undefined if none. */
export function afterNode24Leg(): string | undefined {
  return process.env[AFTER_NODE24_LEG] || undefined;
}

/** One run of vitest: on which Node, which projects (`undefined`: all of them). */
export interface Leg {
  name: string;
  execPath: string;
  env: NodeJS.ProcessEnv;
  projects?: string[];
  why: string;
}
export type { TestNode };
