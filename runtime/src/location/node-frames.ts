// Node: a description's stack frames as original, project-relative places, through the same on-disk
// source maps (./node-maps.ts) and app root (./node-paths.ts) that give `file_name`.
import { describe } from '../core/describe.ts';
import { describeWithFrames, type ResolveFrame } from './frames.ts';
import { hasMap, isWarm, loadMap, mapFrame } from './node-maps.ts';
import { mappedProjectPath, toFsPath, toProjectPath } from './node-paths.ts';
import { unmappedPath, withoutHash } from './paths.ts';
import type { LocationOptions } from './types.ts';

/** Node's own modules: `node:internal/...` (and `internal/...` of older Nodes), kept as printed. */
const NODE_INTERNAL = /^(?:node:|internal[\\/])/;

/** Resolves a frame: Node internals as they are, the rest mapped (when `sourceMaps`) and relative. */
function resolver(options: LocationOptions): ResolveFrame {
  return (frame, wait) => {
    if (NODE_INTERNAL.test(frame.file))
      return { file: frame.file, line: frame.line, column: frame.column };
    const path = toFsPath(frame.file);
    if (options.sourceMaps && path !== undefined) {
      if (wait && !isWarm(path)) return undefined;
      const mapped = mapFrame(path, frame, frame.name);
      if (mapped) return { ...mapped, file: mappedProjectPath(mapped.file, path) };
      // Code the bundler generated and its map says nothing of (Vite's SSR wrapper of a
      // component's setup): its place moves in every build, so the frame names only its file.
      if (hasMap(path)) return { file: withoutHash(toProjectPath(frame.file)), line: 0, column: 0 };
    }
    const file = unmappedPath(toProjectPath(frame.file), options);
    return { file, line: frame.line, column: frame.column };
  };
}

/**
 * A title's text (no `options`), or a description's (`core/describe.ts`) with its stack frames
 * rewritten. Synchronous once the maps of its scripts are read; the first report from a script
 * returns a promise (each map is read once). Never throws; the promise never rejects.
 */
export function describeNode(
  value: unknown,
  options?: LocationOptions,
): string | undefined | Promise<string | undefined> {
  if (!options) return describe(value);
  return describeWithFrames(value, resolver(options), (files) =>
    Promise.all(files.map((file) => loadMap(toFsPath(file) ?? ''))),
  );
}
