// The stack-frame grammar the service maps (DESIGN.md, "Source maps"), line by line, as the
// runtime's location/frames.ts writes frames: V8 `at [async |new ]fn (location)` and
// `at location`, with `eval at fn (location)` inside; Gecko and JavaScriptCore `fn@location` and
// `@location`. A location is `path:line:column` (JavaScriptCore may leave out the column); its path
// is read as the SDKs write chunks (origin, query and fragment dropped, no leading slash).

/** One frame of a description line. */
export interface FrameLine {
  /** The text before the function name (`    at `, `    at async `). */
  head: string;
  /** The function name as printed, if any (`Object.e`, `e [as handler]`). */
  name: string | undefined;
  /** The last part of the name, as a map's definitions name it (`e`). */
  short: string | undefined;
  /** The chunk path the location names (see `chunkPath`). */
  path: string;
  /** 1-based; `column` 0 when the frame has none. */
  line: number;
  column: number;
  /** V8 prints `fn (location)`; the others `fn@location`. */
  style: 'v8' | 'at';
}

/** Lines are at most this long to be read as frames (a longer one is message text). */
const LINE_MAX = 4096;
const SCHEME = /^[a-z][\w+.-]*:/i;

/** The chunk path of a frame's location: origin, query, fragment and leading slashes dropped. */
export function chunkPath(location: string): string {
  let path = location.replace(/^[a-z][\w+.-]*:\/\/[^/]*/i, '');
  const cut = path.search(/[?#]/);
  if (cut !== -1) path = path.slice(0, cut);
  return path.replace(/^\/+/, '');
}

/**
 * The frame a description line holds, or undefined for any other line (message text, eval). By
 * hand rather than by regular expression: a frame's lazy groups backtracked over every line.
 */
export function parseFrame(text: string): FrameLine | undefined {
  if (text.length > LINE_MAX) return undefined;
  let i = 0;
  while (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9) i++;
  return text.startsWith('at ', i) ? v8Frame(text, i + 3) : atFrame(text, i);
}

/** V8: `at [async |new ]name (location)` or `at location`; `i` is past `at `. */
function v8Frame(text: string, i: number): FrameLine | undefined {
  let at = i;
  if (text.startsWith('async ', at)) at += 6;
  else if (text.startsWith('new ', at)) at += 4;
  const open = text.indexOf(' (', at);
  const wrapped = open !== -1 && text.endsWith(')');
  const name = wrapped ? text.slice(at, open) : undefined;
  const location = wrapped ? text.slice(open + 2, -1) : text.slice(at);
  if (location.startsWith('eval at ')) return undefined;
  const place = splitLocation(location, true);
  if (!place) return undefined;
  const short = name
    ?.replace(/ \[as [^\]]*\]$/, '')
    .split('.')
    .pop();
  return { head: text.slice(0, at), name, short, ...place, style: 'v8' };
}

/**
 * SpiderMonkey and JavaScriptCore: `name@location`, `@location`, or a bare location with a scheme
 * or a leading `/` (a relative one needs the `@`); the column may be missing.
 */
function atFrame(text: string, i: number): FrameLine | undefined {
  if (/ > (?:eval|Function)/.test(text)) return undefined;
  const sign = text.indexOf('@', i);
  const before = sign === -1 ? '' : text.slice(i, sign);
  if (/\s/.test(before)) return undefined;
  const location = sign === -1 ? text.slice(i) : text.slice(sign + 1);
  if (sign === -1 && !SCHEME.test(location) && !location.startsWith('/')) return undefined;
  if (/[\s@]/.test(location)) return undefined;
  const place = splitLocation(location, false);
  if (!place) return undefined;
  const name = before || undefined;
  return {
    head: text.slice(0, i) + (sign !== -1 && !name ? '@' : ''),
    name,
    short: name?.split(/[./]/).pop(),
    ...place,
    style: 'at',
  };
}

const DIGITS = /^\d+$/;

/** `path:line:column` (the column optional unless `column` is required) as a chunk path and numbers. */
function splitLocation(location: string, needColumn: boolean) {
  const last = location.lastIndexOf(':');
  if (last <= 0) return undefined;
  const tail = location.slice(last + 1);
  if (!DIGITS.test(tail)) return undefined;
  const previous = location.lastIndexOf(':', last - 1);
  const middle = previous > 0 ? location.slice(previous + 1, last) : '';
  if (DIGITS.test(middle)) {
    return { path: chunkPath(location.slice(0, previous)), line: +middle, column: +tail };
  }
  if (needColumn) return undefined;
  return { path: chunkPath(location.slice(0, last)), line: +tail, column: 0 };
}

/** An original place to write in a frame's stead. */
export interface Place {
  file: string;
  /** 1-based. */
  line: number;
  column: number;
  /** The original function name, when the map gives one. */
  name?: string;
}

/** The frame line rewritten at `place` (its original function name when there is one). */
export function renderFrame(frame: FrameLine, place: Place): string {
  const where = `${place.file}:${place.line}:${place.column}`;
  const shown = frame.name && place.name ? renamed(frame.name, place.name) : frame.name;
  if (frame.style === 'v8') return shown ? `${frame.head}${shown} (${where})` : frame.head + where;
  return `${frame.head}${shown ? `${shown}@` : ''}${where}`;
}

/** `e` -> `loadOrder`, `Object.e` -> `Object.loadOrder` (the part the map names). */
function renamed(printed: string, original: string): string {
  const alias = / \[as [^\]]*\]$/.exec(printed)?.[0] ?? '';
  const base = printed.slice(0, printed.length - alias.length);
  const cut = Math.max(base.lastIndexOf('.'), base.lastIndexOf('/'));
  return `${base.slice(0, cut + 1)}${original}${alias}`;
}
