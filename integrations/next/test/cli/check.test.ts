import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scanStatic } from '../../src/cli/check.ts';

const dist = mkdtempSync(join(tmpdir(), 'svc-next-check-'));
afterAll(() => rmSync(dist, { recursive: true, force: true }));

describe('scanStatic', () => {
  it('finds the known secret value and signing-secret-shaped values under static/, nothing else', () => {
    mkdirSync(join(dist, 'static', 'chunks'), { recursive: true });
    mkdirSync(join(dist, 'server'), { recursive: true });
    writeFileSync(join(dist, 'static', 'chunks', 'ok.js'), 'const k="svc_pub_abc";');
    writeFileSync(join(dist, 'static', 'chunks', 'bad.js'), 'const s="my-long-secret";');
    writeFileSync(join(dist, 'static', 'chunks', 'prefixed.js'), `x="svc_sec_${'ab'.repeat(32)}"`);
    writeFileSync(join(dist, 'static', 'chunks', 'redact.js'), 'r=/(svc_pub_|svc_sec_|svck_)/');
    writeFileSync(join(dist, 'server', 'page.js'), 'const s="my-long-secret";'); // server: fine
    const known = [{ variable: 'SERVICE_SIGNING_SECRET', value: 'my-long-secret' }];
    const leaks = scanStatic(dist, known).sort((a, b) => a.file.localeCompare(b.file));
    expect(leaks).toEqual([
      { file: join('static', 'chunks', 'bad.js'), what: 'the value of SERVICE_SIGNING_SECRET' },
      { file: join('static', 'chunks', 'prefixed.js'), what: 'a signing secret (svc_sec_...)' },
    ]);
  });
});
