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

// V8: "    at [async |new ]name (file:1:2)" or "    at file:1:2".
const V8_LINE = /^(\s*at (?:async |new )?)(?:(.*?) \()?(.+?):(\d+):(\d+)\)?$/;
// SpiderMonkey and JavaScriptCore: "name@file:1:2", "@file:1:2" (a relative path needs the "@").
const AT_LINE = /^(\s*(?:[^@\s]*@)?)((?:[a-z][\w+.-]*:|\/).+?|(?<=@)[^\s@]+?):(\d+)(?::(\d+))?$/i;
/** Lines are at most this long to be read as frames (a longer one is message text). */
const LINE_MAX = 4096;

/** The chunk path of a frame's location: origin, query, fragment and leading slashes dropped. */
export function chunkPath(location: string): string {
  let path = location.replace(/^[a-z][\w+.-]*:\/\/[^/]*/i, '');
  const cut = path.search(/[?#]/);
  if (cut !== -1) path = path.slice(0, cut);
  return path.replace(/^\/+/, '');
}

/** The frame a description line holds, or undefined for any other line (message text, eval). */
export function parseFrame(text: string): FrameLine | undefined {
  if (text.length > LINE_MAX) return undefined;
  const v8 = V8_LINE.exec(text);
  if (v8) {
    const [, head, name, file, line, column] = v8;
    if (file!.startsWith('eval at ') || file!.includes('(')) return undefined;
    const short = name
      ?.replace(/ \[as [^\]]*\]$/, '')
      .split('.')
      .pop();
    return {
      head: head!,
      name,
      short,
      path: chunkPath(file!),
      line: +line!,
      column: +column!,
      style: 'v8',
    };
  }
  if (/ > (?:eval|Function)/.test(text)) return undefined;
  const at = AT_LINE.exec(text);
  if (!at) return undefined;
  const [, head, file, line, column] = at;
  const name = /([^@\s*]+)@$/.exec(head!)?.[1];
  return {
    head: name ? head!.slice(0, -1 - name.length) : head!,
    name,
    short: name?.split(/[./]/).pop(),
    path: chunkPath(file!),
    line: +line!,
    column: column ? +column : 0,
    style: 'at',
  };
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
