import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { callSite, callSites, causeChain, SDK_FRAME, throwSite } from '../../src/location/site.ts';

const chromium = JSON.parse(
  readFileSync(new URL('./fixtures/stacks/v8-chromium.json', import.meta.url), 'utf8'),
) as { cause: string[] };

/** An Error with a fixed stack (as captured from an engine). */
function withStack(message: string, stack: string, cause?: unknown): Error {
  const error = new Error(message, cause === undefined ? undefined : { cause });
  error.stack = stack;
  return error;
}

const at = (file: string, line: number) => `Error: x\n    at f (${file}:${line}:1)`;

describe('throwSite', () => {
  it('is the throw site of the root cause, two levels down', () => {
    const root = withStack('root', at('/app/src/db.ts', 30));
    const middle = withStack('middle', at('/app/src/repo.ts', 20), root);
    const outer = withStack('outer', at('/app/src/handler.ts', 10), middle);
    expect(throwSite(outer)).toEqual({ file: '/app/src/db.ts', line: 30, column: 1 });
  });

  it('works on a real captured chain (Chromium)', () => {
    const root = withStack('root', chromium.cause[1]);
    const outer = withStack('outer', chromium.cause[0], root);
    expect(throwSite(outer)).toMatchObject({ line: 3, column: 15 });
  });

  it("skips Sentry React's synthetic `React ErrorBoundary` cause", () => {
    const boundary = withStack('x', '    at App (http://h/assets/index.js:1:999)');
    boundary.name = 'React ErrorBoundary Error';
    const error = withStack('render failed', at('http://h/assets/index.js', 7), boundary);
    expect(throwSite(error)).toEqual({ file: 'http://h/assets/index.js', line: 7, column: 1 });
  });

  it('falls back to the nearest wrapper when the root has no frames', () => {
    const root = withStack('ENOENT', 'Error: ENOENT: no such file');
    const outer = withStack('outer', at('/app/src/load.ts', 4), root);
    expect(throwSite(outer)).toMatchObject({ file: '/app/src/load.ts', line: 4 });
  });

  it('survives cause cycles, non-Error causes and throwing getters', () => {
    const a = withStack('a', at('/app/a.ts', 1));
    const b = withStack('b', at('/app/b.ts', 2), a);
    (a as { cause?: unknown }).cause = b;
    expect(causeChain(a).length).toBe(2);
    expect(throwSite(withStack('s', at('/app/s.ts', 5), 'a string cause'))?.line).toBe(5);
    const hostile = new Error('h');
    Object.defineProperty(hostile, 'stack', {
      get() {
        throw new Error('no');
      },
    });
    expect(throwSite(hostile)).toBeUndefined();
  });

  it('accepts error-likes from another realm (duck-typed `stack`)', () => {
    expect(throwSite({ message: 'm', stack: at('/app/x.ts', 9) })?.line).toBe(9);
  });

  it('is undefined for descriptions that are not errors', () => {
    expect(throwSite('text')).toBeUndefined();
    expect(throwSite({ message: 'no stack' })).toBeUndefined();
    expect(throwSite(undefined)).toBeUndefined();
  });
});

describe('callSite', () => {
  it('skips SDK and integration frames (installed and monorepo layouts)', () => {
    const stack = [
      'Error',
      '    at capture (/app/node_modules/@svc/runtime/dist/node.mjs:10:1)',
      '    at Object.critical (/repo/runtime/dist/node.cjs:20:1)',
      '    at handler (/repo/integrations/express/dist/index.mjs:5:1)',
      '    at route (/app/src/routes/users.ts:42:7)',
      '    at next (/app/node_modules/express/lib/router/layer.js:95:5)',
    ].join('\n');
    expect(callSite(stack)).toEqual({ file: '/app/src/routes/users.ts', line: 42, column: 7 });
    expect(callSites(stack).length).toBe(2);
  });

  it("recognises Vite dev's pre-bundled SDK", () => {
    expect(SDK_FRAME.test('http://localhost:5173/node_modules/.vite/deps/@svc_runtime.js')).toBe(
      true,
    );
    expect(SDK_FRAME.test('http://localhost:5173/src/main.ts')).toBe(false);
  });

  it('is undefined when every frame is the SDK', () => {
    expect(callSite('Error\n    at f (/app/node_modules/@svc/runtime/dist/x.mjs:1:1)')).toBe(
      undefined,
    );
  });
});
