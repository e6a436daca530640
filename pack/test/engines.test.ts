// Each package's `engines` against the Nodes the repository tests (testkit/nodes): on Node 20 and
// 22 from npm, npm itself running on that Node, the tarballs that claim it install with their
// frameworks without an EBADENGINE warning (the install on Node 24 is ./tarballs.test.ts), and
// the claims are the ones the root README's table states.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { badEngines, inRange, nodeEnv, testNode } from '@svc/testkit';
import { describe, expect, inject, it } from 'vitest';

const exec = promisify(execFile);
const { packed } = inject('fresh');

/** The framework a user installs beside each integration (versions as in ./app.ts). */
const BESIDE: Record<string, string[]> = {
  '@svc/express': ['express@5.3.0'],
  '@svc/vite': ['vite@8.3.8'],
  '@svc/next': ['next@16.4.6', 'react@19.3.1', 'react-dom@19.3.1'],
  '@svc/nuxt': ['nuxt@4.5.2'],
  '@svc/hono': ['hono@4.13.19'],
  // SvelteKit 3 needs Node 22.17: on 20 the 2.x the generator asks for.
  '@svc/sveltekit': ['@sveltejs/kit@2.70.4', 'vite@8.3.8'],
  '@svc/react-router': ['react-router@8.4.0', 'react@19.3.1', 'react-dom@19.3.1', 'vite@8.3.8'],
};

/** The packages that claim each Node (the root README's table). */
const CLAIMS = {
  20: [
    '@svc/runtime',
    '@svc/server',
    '@svc/express',
    '@svc/vite',
    '@svc/next',
    '@svc/hono',
    '@svc/sveltekit',
  ],
  22: [
    '@svc/runtime',
    '@svc/server',
    '@svc/express',
    '@svc/vite',
    '@svc/next',
    '@svc/nuxt',
    '@svc/hono',
    '@svc/sveltekit',
    '@svc/react-router',
  ],
} as const;

// The two installs side by side: each is mostly npm resolving metadata (about 20 and 40 s here).
describe.concurrent.each([20, 22] as const)('on Node %i from npm', (major) => {
  const node = testNode(major);
  it.skipIf(!node)('what claims it installs there without an engines warning', async () => {
    const claiming = packed.filter((p) => inRange(node!.version, p.manifest.engines.node));
    expect(claiming.map((p) => p.name)).toEqual(CLAIMS[major]);
    const dir = mkdtempSync(join(tmpdir(), `svc-engines-node${major}-`));
    try {
      writeFileSync(join(dir, 'package.json'), '{ "name": "engines", "private": true }\n');
      const specs = claiming.flatMap((p) => [p.tarball, ...(BESIDE[p.name] ?? [])]);
      const { stdout, stderr } = await exec(
        'npm',
        ['install', '--dry-run', '--prefer-offline', '--no-audit', '--no-fund', ...specs],
        { cwd: dir, env: nodeEnv(node!), maxBuffer: 1 << 26 },
      );
      expect(badEngines(stdout + stderr)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  if (!node)
    console.log(`[pack] engines on Node ${major}: no Node ${major} from npm on this platform`);
});
