import { describe, expect, it } from 'vitest';
import { clampTail } from '../../src/core/clamp.ts';
import { LIMITS } from '../../src/generated/limits.gen.ts';
import { fileUrlToPath, fromNodeModules, urlToPath } from '../../src/location/paths.ts';

describe('urlToPath', () => {
  it('drops the origin, the query (Vite `?t=`) and the hash', () => {
    expect(urlToPath('http://localhost:5173/src/App.tsx?t=1700000000000#x')).toBe('src/App.tsx');
    expect(urlToPath('https://cdn.example.com:8443/assets/index-abc123.js')).toBe(
      'assets/index-abc123.js',
    );
  });

  it('drops bundler schemes and `./`', () => {
    expect(urlToPath('webpack://my-app/./src/pages/index.tsx')).toBe('src/pages/index.tsx');
  });

  it('reports dependency files from their `node_modules/` segment', () => {
    expect(urlToPath('http://localhost:5173/@fs/home/me/app/node_modules/lib/x.js')).toBe(
      'node_modules/lib/x.js',
    );
    expect(urlToPath('http://h/node_modules/.vite/deps/react.js?v=1')).toBe(
      'node_modules/.vite/deps/react.js',
    );
  });

  it('decodes percent-encoding and leaves non-URLs to the caller', () => {
    expect(urlToPath('http://h/src/my%20file.ts')).toBe('src/my file.ts');
    expect(urlToPath('/abs/path.js')).toBeUndefined();
    expect(urlToPath('file:///abs/path.js')).toBeUndefined();
  });
});

describe('fromNodeModules', () => {
  it('cuts at the last node_modules (pnpm layout)', () => {
    expect(fromNodeModules('/r/node_modules/.pnpm/a@1.0.0/node_modules/a/i.js')).toBe(
      'node_modules/a/i.js',
    );
    expect(fromNodeModules('/r/my_node_modules/a.js')).toBeUndefined();
  });
});

describe('clampTail (file names, clamped by the client)', () => {
  it('keeps the last fileNameMax characters', () => {
    const long = `${'d/'.repeat(200)}file.ts`;
    const max = LIMITS.fileNameMax;
    expect(clampTail(long, max)).toHaveLength(max);
    expect(clampTail(long, max).endsWith('/file.ts')).toBe(true);
    expect(clampTail('src/a.ts', max)).toBe('src/a.ts');
  });
});

describe('fileUrlToPath (Deno and workerd, which load the build without a file system)', () => {
  it("is relative to the main module's folder (Deno), cut at node_modules/ first", () => {
    expect(fileUrlToPath('file:///srv/app/src/routes.ts', '/srv/app/')).toBe('src/routes.ts');
    expect(fileUrlToPath('file:///srv/app/node_modules/hono/dist/x.js', '/srv/app/')).toBe(
      'node_modules/hono/dist/x.js',
    );
    expect(fileUrlToPath('file:///srv/app/my%20file.ts', '/srv/app/')).toBe('my file.ts');
  });

  it("names a bundle wrangler dev wrote as a deployed Worker names it (the build's file)", () => {
    const url = 'file:///home/me/app/.wrangler/tmp/dev-WWd3dz/index.js';
    expect(fileUrlToPath(url, undefined)).toBe('index.js');
  });

  it('leaves other URLs and paths to the caller (kept as printed)', () => {
    expect(fileUrlToPath('file:///elsewhere/x.ts', '/srv/app/')).toBeUndefined();
    expect(fileUrlToPath('file:///srv/app/x.ts', undefined)).toBeUndefined();
    expect(fileUrlToPath('https://h/x.js', '/srv/app/')).toBeUndefined();
    expect(fileUrlToPath('/srv/app/x.ts', '/srv/app/')).toBeUndefined();
  });
});
