import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseStack } from '../../src/location/stack.ts';

type Fixture = Record<string, string | string[]>;
const load = (name: string): Fixture =>
  JSON.parse(readFileSync(new URL(`./fixtures/stacks/${name}.json`, import.meta.url), 'utf8'));

const APP = 'http://127.0.0.1:37471/assets/app.js?v=3';
const LIB = 'http://127.0.0.1:37471/assets/lib.js';
// The jsc shell loads files, not URLs, so the JavaScriptCore capture has absolute paths.
const JSC_APP = '/tmp/svc-capture/jsc/app.js';
const JSC_LIB = '/tmp/svc-capture/jsc/lib.js';
const at = (file: string, line: number, column: number) => ({ file, line, column });

/**
 * What each real browser-engine capture must parse to (see fixtures/stacks/README.md). JavaScriptCore
 * columns point at the call's `(` instead of `new`/the callee, and its proper tail calls remove
 * `root` (`return JSON.parse(...)` in strict module code), so its root-cause top frame is the
 * `root()` call inside `middle`.
 */
const browserEngines = [
  {
    engine: 'v8-chromium',
    root: at(APP, 3, 15),
    ctor: [at(LIB, 3, 21), at(APP, 19, 21), at(APP, 19, 7)],
    callsite: [at(APP, 24, 18), at(APP, 26, 15)],
  },
  {
    engine: 'spidermonkey',
    root: at(APP, 3, 15),
    ctor: [at(LIB, 3, 21), at(APP, 19, 21), at(APP, 19, 7)],
    callsite: [at(APP, 24, 18), at(APP, 26, 15)],
  },
  {
    engine: 'javascriptcore',
    root: at(JSC_APP, 7, 9),
    ctor: [at(JSC_LIB, 3, 34), at(JSC_APP, 19, 30), at(JSC_APP, 19, 14)],
    callsite: [at(JSC_APP, 24, 27), at(JSC_APP, 26, 12)],
  },
];

describe('parseStack: real Node (V8) stacks', () => {
  const node = load('v8-node');
  const MAIN = 'file:///tmp/svc-capture/app/src/main.mjs';

  it('reads file:// frames, skips `<anonymous>` built-ins, keeps async frames', () => {
    const [outer, root] = node.cause as string[];
    expect(parseStack(root).map((f) => `${f.file}:${f.line}:${f.column}`)).toEqual([
      `${MAIN}:7:15`,
      `${MAIN}:11:5`,
      'file:///tmp/svc-capture/app/src/worker.mjs:7:12',
      `${MAIN}:18:3`,
    ]);
    expect(parseStack(outer)[0]).toEqual({ file: MAIN, line: 13, column: 11 });
  });

  it('reads `new` frames and plain CommonJS paths', () => {
    const frames = parseStack(node.ctor);
    expect(frames[0]).toEqual({
      file: 'file:///tmp/svc-capture/app/src/worker.mjs',
      line: 3,
      column: 21,
    });
    expect(frames[2].file).toBe('/tmp/svc-capture/app/node_modules/left-pad/index.cjs');
  });

  it('drops eval frames, keeps the frame that called eval', () => {
    expect(parseStack(node.eval)).toEqual([{ file: MAIN, line: 28, column: 3 }]);
  });

  it('honours the frame limit', () => {
    expect(parseStack(node.callsite, 1)).toEqual([{ file: MAIN, line: 33, column: 10 }]);
  });
});

describe.each(browserEngines)('parseStack: $engine', ({ engine, root, ctor, callsite }) => {
  const stacks = load(engine);

  it('finds the root cause throw site, skipping the native JSON.parse frame', () => {
    expect(parseStack((stacks.cause as string[])[1])[0]).toEqual(root);
  });

  it('reads the constructor and anonymous frames, skipping native Array.forEach', () => {
    expect(parseStack(stacks.ctor)).toEqual(ctor);
  });

  it('reads the call-site stack and skips native frames', () => {
    expect(parseStack(stacks.callsite)).toEqual(callsite);
  });
});

describe('parseStack: engine specifics', () => {
  it('SpiderMonkey: reads named, anonymous and async-resumed frames of the cause chain', () => {
    const [outer, rootCause] = load('spidermonkey').cause as string[];
    expect(parseStack(outer)).toEqual([at(APP, 9, 11), at(LIB, 7, 12)]);
    expect(parseStack(rootCause)).toEqual([at(APP, 3, 15), at(APP, 7, 5), at(LIB, 7, 12)]);
  });

  it('SpiderMonkey: drops `line N > eval` frames, keeps the frame that called eval', () => {
    expect(parseStack(load('spidermonkey').eval)).toEqual([at(APP, 28, 3)]);
  });

  it('JavaScriptCore: drops `[native code]`, `eval code@` and URL-less frames', () => {
    const jsc = load('javascriptcore');
    expect(parseStack(jsc.eval)).toEqual([at(JSC_APP, 28, 7)]);
    expect(parseStack((jsc.cause as string[])[1])).toEqual([at(JSC_APP, 7, 9), at(JSC_APP, 5, 23)]);
  });

  it('JavaScriptCore (older Safari, hand-written): reads an anonymous bare-URL top frame', () => {
    // Not producible by today's jsc/Safari; kept because older WebKit printed anonymous frames
    // without `@` (see fixtures/stacks/README.md).
    const stack = `${APP}:3:15\nmiddle@${APP}:7:5\n`;
    expect(parseStack(stack)).toEqual([at(APP, 3, 15), at(APP, 7, 5)]);
  });

  it('keeps an `@` inside a URL (Vite dev `/@fs/`, `/@id/`)', () => {
    const url = 'http://localhost:5173/@fs/home/me/app/src/a.ts';
    expect(parseStack(`f@${url}:1:2\n`)[0].file).toBe(url);
    expect(parseStack(`${url}:3:4\n`)[0]).toEqual({ file: url, line: 3, column: 4 });
  });

  it('returns nothing for non-strings and message-only stacks', () => {
    expect(parseStack(undefined)).toEqual([]);
    expect(parseStack({})).toEqual([]);
    expect(parseStack('Error: no frames here')).toEqual([]);
  });
});
