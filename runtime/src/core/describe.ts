// Renders any `description` argument as text, deterministically (same input, same text), so that
// the service's description dedup still works. Never throws. A `frame` function rewrites each stack
// line (the location code passes one that writes original, project-relative places).

/** Rewrites one line of an error's stack. */
export type FrameLine = (line: string) => string;

const isError = (v: unknown): v is Error =>
  v instanceof Error || (!!v && typeof v === 'object' && 'stack' in v && 'message' in v);

/** `Name: message`, the stack frames, `Digest: ...`, then `Caused by: ...` for each cause (cycles cut). */
function errorText(e: Error, seen: unknown[], frame?: FrameLine): string {
  if (seen.includes(e)) return '[Circular]';
  seen.push(e);
  const name = String(e.name ?? 'Error');
  const head = e.message ? `${name}: ${e.message}` : name;
  let frames = typeof e.stack === 'string' ? e.stack : '';
  // V8 stacks repeat "Name: message" first; Firefox and Safari stacks hold frames only.
  const at = frames.indexOf('\n    at ');
  frames = frames.startsWith(head)
    ? frames.slice(head.length)
    : at >= 0
      ? frames.slice(at)
      : frames && `\n${frames}`;
  frames = frames.trimEnd();
  if (frame) frames = frames.split('\n').map(frame).join('\n');
  let out = head + frames;
  const { errors, cause, digest } = e as Error & { errors?: unknown; digest?: unknown };
  // React and Next.js stamp a server error with the digest the browser is shown.
  if (typeof digest === 'string' && digest !== '') out += `\nDigest: ${digest}`;
  if (Array.isArray(errors))
    for (const inner of errors.slice(0, 10)) out += `\nIncludes: ${text(inner, seen, frame)}`;
  if (cause !== undefined && seen.length < 10) out += `\nCaused by: ${text(cause, seen, frame)}`;
  return out;
}

/** JSON text of any value: cycles, BigInt, Map, Set, nested Errors, functions and symbols. */
function text(v: unknown, seen: unknown[], frame?: FrameLine): string {
  if (typeof v === 'string') return v;
  if (isError(v)) return errorText(v, seen, frame);
  const objects: unknown[] = [];
  return (
    JSON.stringify(v, (_key, x: unknown) => {
      if (typeof x === 'bigint') return `${x}n`;
      if (typeof x === 'function' || typeof x === 'symbol') return `[${typeof x}]`;
      if (!x || typeof x !== 'object') return x;
      if (isError(x)) return errorText(x, seen, frame);
      if (objects.includes(x)) return '[Circular]';
      objects.push(x);
      return x instanceof Map ? { Map: [...x] } : x instanceof Set ? { Set: [...x] } : x;
    }) ?? String(v)
  );
}

/** Description text for any value, or `undefined` for null/undefined. */
export function describe(value: unknown, frame?: FrameLine): string | undefined {
  if (typeof value === 'string' || value == null) return value ?? undefined;
  try {
    return text(value, [], frame);
  } catch {
    try {
      return String(value);
    } catch {
      return Object.prototype.toString.call(value);
    }
  }
}
