// `svc-server serve` from the packed @svc/server on every Node the package claims (20, 22, 24:
// the builds of Node from npm, testkit/nodes), installed and run as a user does on that Node: npm
// itself runs on it, so it picks the SQLite driver that fits (better-sqlite3 13 on Node-API 10,
// 12 on Node 20). The service serves its board, takes reports, lists them, and stops cleanly on
// SIGTERM; on Node 24.21 with better-sqlite3 12 it aborted within seconds (exit 134).
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  badEngines,
  NODE_MAJORS,
  nodeEnv,
  type Spawned,
  spawnProcess,
  type TestNode,
  testNode,
} from '@svc/testkit';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ROOT } from './app.ts';

const exec = promisify(execFile);
const REPORTS = 40;

/** `process.versions` of a Node binary. */
async function versionsOf(node: TestNode): Promise<Record<string, string>> {
  const { stdout } = await exec(node.execPath, ['-p', 'JSON.stringify(process.versions)']);
  return JSON.parse(stdout);
}

/** Whether the repository's better-sqlite3 12 (built by `npm ci` for this machine's Node) loads on `node`. */
async function repositoryBuildLoads(node: TestNode): Promise<boolean> {
  const driver = join(ROOT, 'node_modules/better-sqlite3');
  const open = `new (require(${JSON.stringify(driver)}))(':memory:').close()`;
  return exec(node.execPath, ['-e', open]).then(
    () => true,
    () => false,
  );
}

/**
 * Installs the server tarball into a fresh dir with npm running on `node`. No install scripts:
 * better-sqlite3 12's would download a prebuilt binary (unreachable here) and then compile for
 * minutes; where Node 20 needs that driver, the repository's build is copied in when it loads on
 * `node` (same ABI), else it is compiled for `node` (npm's nodedir set to its headers).
 */
async function installServer(node: TestNode, dir: string): Promise<string> {
  const server = inject('fresh').packed.find((p) => p.name === '@svc/server')!;
  writeFileSync(join(dir, 'package.json'), '{ "name": "svc-host", "private": true }\n');
  const env = nodeEnv(node);
  const npm = (...args: string[]) => exec('npm', args, { cwd: dir, env, maxBuffer: 1 << 26 });
  const { stdout, stderr } = await npm(
    'install',
    '--prefer-offline',
    '--ignore-scripts',
    '--no-audit',
    '--no-fund',
    server.tarball,
  );
  if (Number((await versionsOf(node)).napi) < 10) {
    if (await repositoryBuildLoads(node)) {
      const build = join(ROOT, 'node_modules/better-sqlite3/build');
      cpSync(build, join(dir, 'node_modules/better-sqlite3/build'), { recursive: true });
    } else {
      await npm('rebuild', 'better-sqlite3');
    }
  }
  return stdout + stderr;
}

function serveOn(major: (typeof NODE_MAJORS)[number]): void {
  const node = testNode(major);
  if (!node) {
    console.log(
      `[pack] svc-server serve on Node ${major}: no Node ${major} from npm on this platform`,
    );
    return;
  }
  describe(`svc-server serve on Node ${node.version}, installed with npm on it`, () => {
    let dir: string;
    let dataDir: string;
    let serve: Spawned;
    let url: string;
    let apiKey: string;
    let installOutput: string;
    const cli = async (...args: string[]) => {
      const bin = join(dir, 'node_modules/.bin/svc-server');
      const { stdout } = await exec(bin, [...args, '--data-dir', dataDir], { env: nodeEnv(node) });
      return stdout;
    };

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), `svc-serve-node${major}-`));
      dataDir = join(dir, 'data');
      installOutput = await installServer(node, dir);
      await cli('init');
      await cli('account', 'create', '--name', 'Shop', '--plan', 'team');
      await cli('project', 'create', '--account', '1', '--name', 'Web');
      const key = await cli(
        'key',
        'create',
        '--project',
        '1',
        '--type',
        'publishable',
        '--name',
        'web',
        '--origin',
        'https://shop.example',
      );
      apiKey = /apiKey:\s+(\S+)/.exec(key)![1]!;
      serve = spawnProcess(
        join(dir, 'node_modules/.bin/svc-server'),
        ['serve', '--board', '--port', '0', '--data-dir', dataDir],
        { env: nodeEnv(node) },
      );
      [, url] = (await serve.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/)) as string[] as [
        string,
        string,
      ];
    });

    afterAll(async () => {
      serve?.kill('SIGKILL');
      await serve?.exited;
      rmSync(dir, { recursive: true, force: true });
    });

    it('installs without an engines warning, with the driver for this Node', () => {
      expect(badEngines(installOutput)).toEqual([]);
      const wanted = major === 20 ? 'better-sqlite3' : 'better-sqlite3-napi';
      const manifest = JSON.parse(
        readFileSync(join(dir, 'node_modules', wanted, 'package.json'), 'utf8'),
      );
      expect(manifest.version).toBe(major === 20 ? '12.11.1' : '13.2.0');
    });

    it('serves the board, takes reports, lists them and stops on SIGTERM with exit 0', async () => {
      expect((await fetch(`${url}/board`, { redirect: 'manual' })).status).toBeLessThan(500);
      for (let i = 0; i < REPORTS; i++) {
        const response = await fetch(`${url}/api/v1/tasks`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${apiKey}`,
            origin: 'https://shop.example',
            'content-type': 'application/json',
          },
          body: JSON.stringify({
            title: `Checkout failed ${i % 10}`,
            description: `Order ${i} could not be paid`,
            severity: 'major',
            priority: 'high',
          }),
        });
        expect(response.status).toBeLessThan(300);
        await response.arrayBuffer();
      }
      // Time for V8 to collect the statements the requests dropped (how 12 aborted on Node 24).
      await new Promise((r) => setTimeout(r, 3000));
      expect((await fetch(`${url}/health`)).status).toBe(200);
      const cards = JSON.parse(await cli('cards', 'list', '--project', '1', '--json'));
      expect(cards.map((c: { occurrence_count: number }) => c.occurrence_count)).toEqual(
        Array(10).fill(REPORTS / 10),
      );
      const driver = major === 20 ? 'better-sqlite3 12.11.1' : 'better-sqlite3 13.2.0';
      expect(serve.output()).toContain(`svc-server: SQLite through ${driver}`);
      serve.kill('SIGTERM');
      expect(await serve.exited).toBe(0);
      expect(serve.output()).not.toMatch(/Assertion failed|Segmentation|Aborted/);
    });
  });
}

for (const major of NODE_MAJORS) serveOn(major);
