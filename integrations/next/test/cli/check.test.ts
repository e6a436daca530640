import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scanStatic } from '../../src/cli/check.ts';

const dist = mkdtempSync(join(tmpdir(), 'svc-next-check-'));
afterAll(() => rmSync(dist, { recursive: true, force: true }));

describe('scanStatic', () => {
  it('finds the secret value and svc_sec_ values under static/, nothing else', () => {
    mkdirSync(join(dist, 'static', 'chunks'), { recursive: true });
    mkdirSync(join(dist, 'server'), { recursive: true });
    writeFileSync(join(dist, 'static', 'chunks', 'ok.js'), 'const k="svc_pub_abc";');
    writeFileSync(join(dist, 'static', 'chunks', 'bad.js'), 'const s="my-long-secret";');
    writeFileSync(join(dist, 'static', 'chunks', 'prefixed.js'), 'x="svc_sec_zz"');
    writeFileSync(join(dist, 'server', 'page.js'), 'const s="my-long-secret";'); // server: fine
    const leaks = scanStatic(dist, ['my-long-secret']).sort((a, b) => a.file.localeCompare(b.file));
    expect(leaks).toEqual([
      { file: join('static', 'chunks', 'bad.js'), what: 'secret #1' },
      { file: join('static', 'chunks', 'prefixed.js'), what: 'svc_sec_ value' },
    ]);
  });
});
