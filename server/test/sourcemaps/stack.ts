// Real stacks of a built chunk: the chunk runs in a V8 context of its own, served from an origin,
// and `start(id)` throws (`boom`: the app's own error; '': the dependency's TypeError).
import vm from 'node:vm';
import type { BuiltChunk } from './build-fixture.ts';

/** The error's stack as V8 prints it (the test runner's own frames left out). */
export function stackOf(chunk: BuiltChunk, id: string, origin = 'https://app.example/'): string {
  const context: Record<string, unknown> = {};
  context.globalThis = context;
  vm.runInNewContext(chunk.code, context, { filename: `${origin}${chunk.path}` });
  try {
    (context.start as (id: string) => void)(id);
  } catch (error) {
    return (error as Error)
      .stack!.split('\n')
      .filter(
        (line) =>
          !line.includes('(node:') && !line.includes('.test.ts') && !/\(\/|file:/.test(line),
      )
      .join('\n');
  }
  throw new Error('start() did not throw');
}

/** The upload body of a built chunk, as an uploader sends it. */
export const uploadBody = (
  chunk: BuiltChunk,
  release: string,
  extra: Record<string, unknown> = {},
) => JSON.stringify({ release, path: chunk.path, map: chunk.map, code: chunk.code, ...extra });
