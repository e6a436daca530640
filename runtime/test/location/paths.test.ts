import { describe, expect, it } from 'vitest';
import { clampTail } from '../../src/core/clamp.ts';
import { LIMITS } from '../../src/generated/limits.gen.ts';
import { fromNodeModules, urlToPath } from '../../src/location/paths.ts';

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
