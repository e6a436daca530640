// The fake client's stack frames: what the real client writes for frames without a source map,
// synchronously and without Node's modules (this entry is platform-neutral). Node internals are
// kept, dependency paths cut at `node_modules/`, other paths made relative to the working
// directory (the app root when tests run from it), URLs reduced to their path, content hashes of
// generated file names written `[hash]`. No map is read: a fake report is recorded at once.
import { describeWithFrames, type ResolveFrame } from '../location/frames.ts';
import { fromNodeModules, urlToPath, withoutHash } from '../location/paths.ts';

const NODE_INTERNAL = /^(?:node:|internal[\\/])/;

function relative(file: string): string {
  let path = file;
  if (/^file:\/\//i.test(path)) {
    try {
      path = decodeURIComponent(new URL(path).pathname);
    } catch {
      return path;
    }
  } else if (/^[a-z][\w+.-]*:\/\//i.test(path)) return urlToPath(path) ?? path;
  path = path.replace(/\\/g, '/');
  const cwd = (globalThis as { process?: { cwd?: () => string } }).process?.cwd?.();
  const root = cwd?.replace(/\\/g, '/').replace(/\/?$/, '/');
  return fromNodeModules(path) ?? (root && path.startsWith(root) ? path.slice(root.length) : path);
}

const resolve: ResolveFrame = (frame) =>
  NODE_INTERNAL.test(frame.file)
    ? { file: frame.file, line: frame.line, column: frame.column }
    : { file: withoutHash(relative(frame.file)), line: frame.line, column: frame.column };

/** A description's text with its frames written as the real client writes unmapped frames. */
export function describeFake(value: unknown): string | undefined {
  return describeWithFrames(value, resolve, () => Promise.resolve()) as string | undefined;
}
