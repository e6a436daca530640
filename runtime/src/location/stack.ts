// Stack-string parsing for the three engine formats (V8, SpiderMonkey, JavaScriptCore).

/** One parsed stack frame: where the code is (URL or path), 1-based line and column. */
export interface Frame {
  file: string;
  line: number;
  column: number;
}

// V8 (Node, Chromium, Edge): "    at fn (file:1:2)", "    at file:1:2", "    at async fn (file:1:2)".
const V8_FRAME = /^\s*at (?:async )?(?:.*? \()?(.+?):(\d+):(\d+)\)?$/;
// SpiderMonkey and JavaScriptCore: "fn@file:1:2", "@file:1:2", "async*fn@file:1:2", and JSC's
// anonymous top frame without "@": "http://host/file.js:1:2".
const AT_FRAME = /^(?:[^@]*@(?=[a-z][\w+.-]*:|\/))?(.+?):(\d+)(?::(\d+))?$/i;

/**
 * Parses a stack string into frames, top first. Frames without a usable location (native code,
 * eval, `<anonymous>`, `node:` internals, `(index 0)`) are dropped. Never throws.
 */
export function parseStack(stack: unknown, limit = Number.POSITIVE_INFINITY): Frame[] {
  const frames: Frame[] = [];
  eachFrame(stack, (frame) => frames.push(frame) >= limit);
  return frames;
}

/**
 * Calls `visit` with each usable frame of `stack`, top first, until it returns true. Parses only as
 * far as needed (the reporting call site is usually a few frames down). Never throws.
 */
export function eachFrame(stack: unknown, visit: (frame: Frame) => boolean | undefined): void {
  if (typeof stack !== 'string') return;
  const v8 = /\n\s+at /.test(stack) || /^\s+at /.test(stack);
  let start = 0;
  while (start < stack.length) {
    let end = stack.indexOf('\n', start);
    if (end === -1) end = stack.length;
    const line = stack.slice(start, end).trim();
    start = end + 1;
    if (!line) continue;
    const m = v8 ? (line.startsWith('at ') ? V8_FRAME.exec(line) : null) : AT_FRAME.exec(line);
    const frame = m ? toFrame(m[1], m[2], m[3]) : undefined;
    if (frame && visit(frame)) return;
  }
}

function toFrame(file: string, line: string, column: string | undefined): Frame | undefined {
  // Eval frames ("eval at f (x.js:1:2), <anonymous>:1:1" in V8, "x.js line 2 > eval" in
  // SpiderMonkey) and native/internal code carry no project file.
  if (/^eval at |> eval|> Function|^<anonymous>$|^native$|\[native code\]/.test(file)) return;
  if (/^(?:node|internal)[:/]/.test(file)) return;
  const n = Number(line);
  if (!(n >= 1)) return;
  return { file, line: n, column: column ? Number(column) : 0 };
}
