import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { projectsClaiming } from '../src/legs.ts';
import { inRange, NODE_MAJORS, testNode } from '../src/nodes.ts';

// What npm test runs on which Node (the root README's "Nodes" table), from the packages' engines.
describe('the Nodes of npm test', () => {
  it('reads the engines ranges the packages declare', () => {
    expect(inRange('20.20.2', '^20.19.0 || >=22.12.0')).toBe(true);
    expect(inRange('20.18.3', '^20.19.0 || >=22.12.0')).toBe(false);
    expect(inRange('22.11.0', '^20.19.0 || >=22.12.0')).toBe(false);
    expect(inRange('24.21.0', '^20.19.0 || >=22.12.0')).toBe(true);
    expect(inRange('20.20.2', '^22.19.0 || >=24.11.0')).toBe(false);
    expect(inRange('23.11.0', '^22.19.0 || >=24.11.0')).toBe(false);
    expect(inRange('24.21.0', '^22.19.0 || >=24.11.0')).toBe(true);
    expect(() => inRange('24.21.0', '~24.1')).toThrow(/unsupported/);
  });

  it('runs on Node 20 and 22 the projects whose packages claim them; the rest on Node 24 only', () => {
    expect(projectsClaiming('20.20.2')).toEqual([
      'runtime',
      'express',
      'vite',
      'next',
      'sveltekit',
      'hono',
      'demo',
    ]);
    expect(projectsClaiming('22.23.3')).toEqual([
      'runtime',
      'express',
      'vite',
      'next',
      'nuxt',
      'sveltekit',
      'react-router',
      'hono',
      'demo',
    ]);
  });

  it.runIf(process.platform === 'linux' && process.arch === 'x64')(
    'has each Node from npm installed (testkit/nodes), at the major it is named for',
    () => {
      for (const major of NODE_MAJORS) {
        const node = testNode(major)!;
        expect(existsSync(node.execPath), `node${major}`).toBe(true);
        expect(node.version.split('.')[0]).toBe(String(major));
      }
    },
  );
});
