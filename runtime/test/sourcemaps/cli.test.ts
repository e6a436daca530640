// The `svc-sourcemaps` command as a user runs it (the package's bin, built), on esbuild output:
// against the reference service (what `svc-server sourcemaps list` then shows), and against a
// recording server for what the real one cannot be made to do (see ./request.test.ts).
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startTestService } from '@svc/server/testing';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { listSourceMaps } from '../../../testkit/src/index.ts';
import { SIGNING, useRecordingServer } from '../helpers/recording-server.ts';
import { buildEsbuildApp } from './esbuild-app.ts';

const BIN = fileURLToPath(new URL('../../bin/svc-sourcemaps.js', import.meta.url));
const server = useRecordingServer();
let app: Awaited<ReturnType<typeof buildEsbuildApp>>;
beforeEach(async () => {
  app = await buildEsbuildApp();
});
afterEach(() => app.done());

async function cli(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...args], {
      cwd: app.project,
      env: { PATH: process.env.PATH, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const credentials = () => ({
  SERVICE_URL: server().url,
  SERVICE_KEY_ID: SIGNING.keyId,
  SERVICE_SIGNING_SECRET: SIGNING.signingSecret,
});

it('the reference service stores what a build uploads: svc-server sourcemaps list shows it; again is a no-op', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-cli-service-'));
  const svc = await startTestService({ dataDir });
  try {
    const env = {
      SERVICE_URL: svc.url,
      SERVICE_KEY_ID: svc.keys.keyId,
      SERVICE_SIGNING_SECRET: svc.keys.signingSecret,
    };
    const chunks = readdirSync(join(app.project, 'dist/assets')).filter((f) => f.endsWith('.js'));
    const out = await cli(['upload', 'dist', '--release', 'shop@1.4.2', '--keep-maps'], env);
    expect(out).toEqual({
      code: 0,
      stdout: `[svc] uploaded ${chunks.length} source maps for release shop@1.4.2\n`,
      stderr: '',
    });
    const list = () => listSourceMaps(dataDir, svc.projectId);
    const listed = await list();
    expect(listed.map((m) => [m.release, m.path]).sort()).toEqual(
      chunks.map((c) => ['shop@1.4.2', `assets/${c}`]).sort(),
    );
    expect(listed.every((m) => m.bytes > 0)).toBe(true);
    // The same maps again: stored once (200, created false), still a success.
    const again = await cli(['upload', 'dist', '--release', 'shop@1.4.2'], env);
    expect(again.code).toBe(0);
    expect((await list()).map((m) => m.path).sort()).toEqual(listed.map((m) => m.path).sort());
    // A publishable key is refused: one line with the service's reason, exit 1.
    const pub = await cli(['upload', 'dist', '--release', 'x'], {
      ...env,
      SERVICE_KEY_ID: svc.keys.apiKey,
    });
    expect(pub.code).toBe(1);
  } finally {
    await svc.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

it('upload dist --release R --url-prefix /static/: every map sent, none left, exit 0', async () => {
  const out = await cli(
    ['upload', 'dist', '--release', '3.1.0', '--url-prefix', '/static/'],
    credentials(),
  );
  const chunks = readdirSync(join(app.project, 'dist/assets'));
  expect(out).toEqual({
    code: 0,
    stdout: `[svc] uploaded ${chunks.length} source maps for release 3.1.0\n`,
    stderr: '',
  });
  expect(chunks.every((f) => f.endsWith('.js'))).toBe(true);
  const paths = server()
    .requests.map((r) => (r.json as { path: string }).path)
    .sort();
  expect(paths).toEqual(chunks.map((c) => `static/assets/${c}`).sort());
});

it('the release from SERVICE_RELEASE; --keep-maps leaves the folder as it was', async () => {
  const before = readdirSync(join(app.project, 'dist/assets')).sort();
  const out = await cli(['upload', 'dist', '--keep-maps'], {
    ...credentials(),
    SERVICE_RELEASE: 'r9',
  });
  expect(out.code).toBe(0);
  expect(out.stdout).toMatch(/^\[svc\] uploaded \d+ source maps for release r9\n$/);
  expect(readdirSync(join(app.project, 'dist/assets')).sort()).toEqual(before);
});

it('no credentials: one line, exit 1, the maps removed anyway', async () => {
  const out = await cli(['upload', 'dist', '--release', '1']);
  expect(out.code).toBe(1);
  expect(out.stdout).toBe(
    '[svc] no source maps uploaded because no credentials (SERVICE_URL, SERVICE_KEY_ID, SERVICE_SIGNING_SECRET not set)\n',
  );
  expect(readdirSync(join(app.project, 'dist/assets')).some((f) => f.endsWith('.map'))).toBe(false);
});

it('usage errors: no release, an unknown flag, a missing folder argument', async () => {
  expect((await cli(['upload', 'dist'])).stderr).toMatch(
    /give --release \(or set SERVICE_RELEASE\)/,
  );
  expect((await cli(['upload', 'dist', '--release', '1', '--nope'])).stderr).toMatch(/usage:/);
  const bare = await cli(['upload']);
  expect([bare.code, bare.stderr.startsWith('usage:')]).toEqual([1, true]);
  const help = await cli([]);
  expect([help.code, help.stdout.startsWith('usage:')]).toEqual([0, true]);
});
