import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseStack } from '../../src/location/stack.ts';

type Fixture = Record<string, string | string[]>;
const load = (name: string): Fixture =>
  JSON.parse(readFileSync(new URL(`./fixtures/stacks/${name}.json`, import.meta.url), 'utf8'));

const APP = 'http://127.0.0.1:37471/assets/app.js?v=3';
const LIB = 'http://127.0.0.1:37471/assets/lib.js';
const browserEngines = ['v8-chromium', 'spidermonkey', 'javascriptcore'];

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

describe.each(browserEngines)('parseStack: %s', (engine) => {
  const stacks = load(engine);

  it('finds the root cause throw site at app.js:3:15', () => {
    const [top] = parseStack((stacks.cause as string[])[1]);
    expect(top).toEqual({ file: APP, line: 3, column: 15 });
  });

  it('finds the constructor throw site at lib.js:3:21', () => {
    expect(parseStack(stacks.ctor)[0]).toEqual({ file: LIB, line: 3, column: 21 });
  });

  it('finds the call site at app.js:24:18 and skips native frames', () => {
    const frames = parseStack(stacks.callsite);
    expect(frames[0]).toEqual({ file: APP, line: 24, column: 18 });
    expect(frames.every((f) => f.file.startsWith('http://'))).toBe(true);
  });
});

describe('parseStack: engine specifics', () => {
  it('SpiderMonkey: drops `line N > eval` frames', () => {
    expect(parseStack(load('spidermonkey').eval)).toEqual([{ file: APP, line: 28, column: 3 }]);
  });

  it('JavaScriptCore: drops `eval code@` and reads an anonymous bare-URL top frame', () => {
    const jsc = load('javascriptcore');
    expect(parseStack(jsc.eval)).toEqual([{ file: APP, line: 28, column: 3 }]);
    expect(parseStack(jsc.anonymousTop)[0]).toEqual({ file: APP, line: 3, column: 15 });
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
