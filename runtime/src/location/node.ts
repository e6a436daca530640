// Node location capture (first version: call site only, no source maps yet).
import type { CaptureLocation, Location } from './types.ts';

const SDK_FRAME =
  /[\\/](?:node_modules[\\/]@svc[\\/]|runtime[\\/](?:src|dist)[\\/]|integrations[\\/][^\\/]+[\\/](?:src|dist)[\\/])/;

/** Node `captureLocation`: reporting call site, project-relative to `process.cwd()`. */
export const captureLocation: CaptureLocation = (_description, options) => {
  if (!options.captureLocation) return undefined;
  try {
    const stack = new Error().stack ?? '';
    for (const line of stack.split('\n').slice(1)) {
      const m = /\(?((?:file:\/\/)?[^()\s]+):(\d+):\d+\)?$/.exec(line.trim());
      if (!m || SDK_FRAME.test(m[1])) continue;
      let file = m[1].replace(/^file:\/\//, '');
      const root = `${process.cwd()}/`;
      if (file.startsWith(root)) file = file.slice(root.length);
      const loc: Location = { file_name: file };
      if (options.lineNumbers) loc.line_number = Number(m[2]);
      return loc;
    }
  } catch {
    // never throw into the host
  }
  return undefined;
};
