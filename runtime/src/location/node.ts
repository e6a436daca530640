// Node `captureLocation`: throw site or call site, resolved through on-disk source maps.
import { captureError } from './capture-stack.ts';
import { laterStack } from './later-stack.ts';
import { isWarm, loadMap, mapFrame } from './node-maps.ts';
import { mappedProjectPath, toFsPath, toProjectPath } from './node-paths.ts';
import { unmappedPath } from './paths.ts';
import { callSite, throwSite } from './site.ts';
import type { Frame } from './stack.ts';
import type { CaptureLocation, Location, LocationOptions } from './types.ts';

/**
 * Node location capture. For an Error description: synchronous, unless `sourceMaps` is on and the
 * script's map has not been read yet (then a promise: the map is read from disk once per script).
 * For any other description the call site's stack is captured synchronously but formatted and
 * parsed in a microtask, so the result is a promise. Never throws; promises never reject.
 */
export const captureLocation: CaptureLocation = (description, options) => {
  if (!options.captureLocation) return undefined;
  try {
    const thrown = throwSite(description);
    if (thrown) return locate(thrown, options);
    const holder = captureError();
    if (!holder) return undefined;
    return laterStack(holder)
      .then((stack) => atCallSite(stack, options))
      .catch(() => ({}));
  } catch {
    return undefined;
  }
};

/**
 * The call site of a reporting call whose description has no throw site (a string, a plain value):
 * its stack is captured now, and read, parsed and mapped when the report is built, by a thenable
 * that the build awaits. Unlike a promise it creates no async resource in the call (nothing runs in
 * the caller's async context, and with async hooks on a promise costs about a microsecond).
 */
export function callSiteLater(options: LocationOptions): PromiseLike<Location> | undefined {
  const holder = captureError();
  if (!holder) return undefined;
  return {
    // biome-ignore lint/suspicious/noThenProperty: a thenable on purpose, awaited by the build
    then(found) {
      let location: Location | Promise<Location>;
      try {
        location = atCallSite(holder.stack, options);
      } catch {
        location = {};
      }
      return (found as (value: Location | Promise<Location>) => unknown)(location);
    },
  } as PromiseLike<Location>;
}

function atCallSite(stack: string | undefined, options: LocationOptions) {
  const frame = callSite(stack);
  return frame ? locate(frame, options) : {};
}

function locate(frame: Frame, options: LocationOptions): Location | Promise<Location> {
  const path = options.sourceMaps ? toFsPath(frame.file) : undefined;
  if (path === undefined) return toLocation(frame, undefined, options);
  if (isWarm(path)) return toLocation(frame, safeMap(path, frame), options);
  return loadMap(path).then(() => toLocation(frame, safeMap(path, frame), options));
}

function safeMap(path: string, frame: Frame): Frame | undefined {
  try {
    return mapFrame(path, frame);
  } catch {
    return undefined; // a corrupt map: report the unresolved location
  }
}

/** The original place, else the generated file (`unmappedPath`: its content hash written `[hash]`). */
function toLocation(frame: Frame, mapped: Frame | undefined, options: LocationOptions): Location {
  try {
    const name = mapped
      ? mappedProjectPath(mapped.file, frame.file)
      : unmappedPath(toProjectPath(frame.file), options);
    const location: Location = { file_name: name };
    if (options.lineNumbers) location.line_number = (mapped ?? frame).line;
    return location;
  } catch {
    return {};
  }
}
