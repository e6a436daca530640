// Renders any `description` argument as text, deterministically (same input, same text), so that
// the service's description dedup still works. Never throws.

const BUDGET = 60_000;

function isError(v: unknown): v is Error {
  return v instanceof Error || (!!v && typeof v === 'object' && 'stack' in v && 'message' in v);
}

function prop(v: object, k: string): unknown {
  try {
    return (v as Record<string, unknown>)[k];
  } catch {
    return undefined;
  }
}

/** `Name: message` then the stack frames, then `Caused by: ...` for each cause. */
function renderError(e: Error, seen: Set<unknown>): string {
  let out = '';
  let cur: unknown = e;
  for (let depth = 0; isError(cur) && depth < 10; depth++) {
    if (seen.has(cur)) {
      out += '\nCaused by: [Circular]';
      break;
    }
    seen.add(cur);
    const name = String(prop(cur, 'name') ?? 'Error');
    const message = String(prop(cur, 'message') ?? '');
    const head = message ? `${name}: ${message}` : name;
    const stack = prop(cur, 'stack');
    let frames = typeof stack === 'string' ? stack : '';
    // V8 stacks repeat "Name: message" first; Firefox/Safari stacks are frames only.
    const v8Head = frames.indexOf('\n    at ');
    if (frames.startsWith(head)) frames = frames.slice(head.length);
    else if (v8Head >= 0) frames = frames.slice(v8Head);
    else if (frames) frames = `\n${frames}`;
    out += (depth ? '\nCaused by: ' : '') + head + frames.replace(/\s+$/, '');
    const errors = prop(cur, 'errors');
    if (Array.isArray(errors)) {
      for (const inner of errors.slice(0, 10)) out += `\nIncludes: ${render(inner, seen)}`;
    }
    cur = prop(cur, 'cause');
    if (cur !== undefined && !isError(cur)) out += `\nCaused by: ${render(cur, seen)}`;
  }
  return out;
}

/** JSON-like text for any value: cycles, BigInt, Map, Set, nested Errors, throwing getters. */
function toJson(v: unknown, seen: Set<unknown>, depth: number, budget: { n: number }): string {
  if (budget.n <= 0) return '"..."';
  let out: string;
  if (v === null || v === undefined) out = 'null';
  else if (typeof v === 'string') out = JSON.stringify(v);
  else if (typeof v === 'number' || typeof v === 'boolean') out = String(v);
  else if (typeof v === 'bigint') out = `"${v}n"`;
  else if (typeof v === 'symbol' || typeof v === 'function') out = JSON.stringify(`[${typeof v}]`);
  else if (seen.has(v)) out = '"[Circular]"';
  else if (depth > 8) out = '"[Object]"';
  else if (isError(v)) out = JSON.stringify(renderError(v, new Set(seen)));
  else {
    seen.add(v);
    const inner = (x: unknown) => toJson(x, seen, depth + 1, budget);
    if (Array.isArray(v)) out = `[${v.slice(0, 100).map(inner).join(',')}]`;
    else if (v instanceof Map) out = `{"Map":[${[...v].slice(0, 100).map(inner).join(',')}]}`;
    else if (v instanceof Set) out = `{"Set":[${[...v].slice(0, 100).map(inner).join(',')}]}`;
    else if (v instanceof Date)
      out = JSON.stringify(Number.isNaN(+v) ? 'Invalid Date' : v.toISOString());
    else {
      const parts: string[] = [];
      for (const k of Object.keys(v).slice(0, 100))
        parts.push(`${JSON.stringify(k)}:${inner(prop(v, k))}`);
      out = `{${parts.join(',')}}`;
    }
    seen.delete(v);
  }
  budget.n -= out.length;
  return out;
}

function render(v: unknown, seen: Set<unknown>): string {
  if (typeof v === 'string') return v;
  if (isError(v)) return renderError(v, seen);
  return toJson(v, seen, 0, { n: BUDGET });
}

/** Description text for any value, or `undefined` for null/undefined. */
export function describe(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return undefined;
  try {
    return render(value, new Set());
  } catch {
    try {
      return Object.prototype.toString.call(value);
    } catch {
      return '[unrenderable]';
    }
  }
}
