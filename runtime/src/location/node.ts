// Node `captureLocation`: throw site or call site, resolved through on-disk source maps.
import { toFsPath, toProjectPath } from './node-paths.ts';
import { isWarm, loadMap, mapFrame } from './node-maps.ts';
import { captureStack } from './capture-stack.ts';
import { callSite, throwSite } from './site.ts';
import type { Frame } from './stack.ts';
import type { CaptureLocation, Location, LocationOptions } from './types.ts';

/**
 * Node location capture. Synchronous unless `sourceMaps` is on and the frame's script has not been
 * looked at yet: then a promise that reads the map from disk (once per script) and resolves with the
 * original location, or with the unresolved one on any failure. Never throws, never rejects.
 */
export const captureLocation: CaptureLocation = (description, options) => {
  if (!options.captureLocation) return undefined;
  try {
    const frame = throwSite(description) ?? callSite(captureStack());
    if (!frame) return undefined;
    const path = options.sourceMaps ? toFsPath(frame.file) : undefined;
    if (path === undefined) return toLocation(frame, options);
    if (isWarm(path)) return toLocation(safeMap(path, frame), options);
    return loadMap(path).then(() => toLocation(safeMap(path, frame), options));
  } catch {
    return undefined;
  }
};

function safeMap(path: string, frame: Frame): Frame {
  try {
    return mapFrame(path, frame);
  } catch {
    return frame; // a corrupt map: report the unresolved location
  }
}

function toLocation(frame: Frame, options: LocationOptions): Location {
  try {
    const location: Location = { file_name: toProjectPath(frame.file) };
    if (options.lineNumbers) location.line_number = frame.line;
    return location;
  } catch {
    return {};
  }
}
