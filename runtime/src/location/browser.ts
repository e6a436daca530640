// Browser location capture (first version: call site only, no source maps yet).
import type { CaptureLocation, Location } from './types.ts';

/** Browser `captureLocation`: reporting call site, URL origin/query/hash stripped. */
export const captureLocation: CaptureLocation = (_description, options) => {
  if (!options.captureLocation) return undefined;
  try {
    const stack = new Error().stack ?? '';
    for (const line of stack.split('\n').slice(1)) {
      const m = /(https?:\/\/[^\s()]+?):(\d+):\d+\)?$/.exec(line.trim());
      if (!m || /\/(?:@svc|svc-runtime)\//.test(m[1])) continue;
      const url = new URL(m[1]);
      const loc: Location = { file_name: url.pathname.replace(/^\//, '') };
      if (options.lineNumbers) loc.line_number = Number(m[2]);
      return loc;
    }
  } catch {
    // never throw into the host
  }
  return undefined;
};
