import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// The published `svc-next` bin (dist/cli.js; run `npm run build` first), as a user runs it.
const BIN = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'svc-next-bin-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function svcNext(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, SERVICE_SIGNING_SECRET: '', ...env },
  });
  return { code: result.status, out: result.stdout + result.stderr };
}

describe('svc-next', () => {
  it('init writes the files once, then reports them unchanged', () => {
    const app = join(dir, 'app');
    mkdirSync(app);
    expect(svcNext(['init', app]).out).toMatch(/created\s+instrumentation\.ts/);
    const second = svcNext(['init', app]);
    expect(second.code).toBe(0);
    expect(second.out).toMatch(/unchanged\s+instrumentation-client\.ts/);
    expect(second.out).not.toContain('created');
  });

  it('check fails on a leaked secret without printing it, and passes on a clean build', () => {
    const dist = join(dir, '.next');
    mkdirSync(join(dist, 'static', 'chunks'), { recursive: true });
    writeFileSync(join(dist, 'static', 'chunks', 'a.js'), 'x="svc_pub_1"');
    expect(svcNext(['check', dist], { SERVICE_SIGNING_SECRET: 'top-secret-value' }).code).toBe(0);
    writeFileSync(join(dist, 'static', 'chunks', 'b.js'), 'x="top-secret-value"');
    const leaked = svcNext(['check', dist], { SERVICE_SIGNING_SECRET: 'top-secret-value' });
    expect(leaked.code).toBe(1);
    expect(leaked.out).toContain(join('static', 'chunks', 'b.js'));
    expect(leaked.out).not.toContain('top-secret-value');
  });

  it('prints usage and fails on an unknown command', () => {
    const result = svcNext(['frobnicate']);
    expect(result.code).toBe(1);
    expect(result.out).toContain('usage: svc-next init');
  });
});
