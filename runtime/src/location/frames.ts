// The stack frames of a description, rewritten line by line as original, project-relative places
// (`at loadOrder (app/boom/[id]/page.tsx:12:9)`), so that the same error from two builds or two
// hosts gives the same text. Platform-neutral: the Node and browser resolvers supply the places.
import { describe } from '../core/describe.ts';
import type { Frame } from './stack.ts';

/** Where a frame's code is, as written in a description: a project-relative file, 1-based. */
export interface Place {
  file: string;
  /** 0 for generated code its map says nothing of: the file alone is written. */
  line: number;
  column: number;
  /** The original function name, from the source map's `names`, when the map has one. */
  name?: string;
}

/**
 * Resolves a frame (`name`: the last part of its function name as the engine printed it, maybe
 * minified). With `wait`, returns `undefined` while the frame's source map is still unread: the
 * caller reads the maps of every such file, then renders again without `wait`.
 */
export type ResolveFrame = (frame: Frame & { name?: string }, wait: boolean) => Place | undefined;

// V8: "    at [async |new ]name (file:1:2)" or "    at file:1:2".
const V8_LINE = /^(\s*at (?:async |new )?)(?:(.*?) \()?(.+?):(\d+):(\d+)\)?$/;
// SpiderMonkey and JavaScriptCore: "name@file:1:2", "@file:1:2".
const AT_LINE = /^(\s*(?:[^@\s]*@)?)((?:[a-z][\w+.-]*:|\/).+?):(\d+)(?::(\d+))?$/i;
// V8 eval frames hold the place of the eval call: "eval at f (file:1:2), <anonymous>".
const EVAL_AT = /\(([^()]+?):(\d+):(\d+)\)/;

/**
 * The description text of `value` (`core/describe.ts`) with every stack line rewritten through
 * `resolve`. When some frames' maps are still unread, `warm` reads them (never rejecting) and the
 * text is rendered again, so the result is then a promise. Never throws; never rejects.
 */
export function describeWithFrames(
  value: unknown,
  resolve: ResolveFrame,
  warm: (files: string[]) => Promise<unknown>,
): string | undefined | Promise<string | undefined> {
  const line = (cold?: Set<string>) => (text: string) => {
    try {
      return rewriteLine(text, resolve, cold);
    } catch {
      return text;
    }
  };
  const cold = new Set<string>();
  const text = describe(value, line(cold));
  if (!cold.size) return text;
  const again = () => describe(value, line());
  return warm([...cold]).then(again, again);
}

/**
 * Rewrites one line of a stack: a frame with a place becomes its resolved place and, when the map
 * names it, its original function name; any other line (native frames, `index 0`, text) is kept.
 * `cold` collects the files whose maps are still unread (then the line is returned as is).
 */
export function rewriteLine(line: string, resolve: ResolveFrame, cold?: Set<string>): string {
  const v8 = V8_LINE.exec(line);
  if (v8) {
    const [, head, name, file, row, col] = v8;
    if (file.startsWith('eval at ')) {
      const inner = file.replace(EVAL_AT, (whole, f: string, l: string, c: string) => {
        const found = place(resolve, { file: f, line: +l, column: +c }, cold);
        return found ? `(${where(found)})` : whole;
      });
      return `${head}${name} (${inner}:${row}:${col})`;
    }
    const short = name
      ?.replace(/ \[as [^\]]*\]$/, '')
      .split('.')
      .pop();
    const found = place(resolve, { file, line: +row, column: +col, name: short }, cold);
    if (!found) return line;
    const shown = found.name && name ? renamed(name, found.name) : name;
    return shown ? `${head}${shown} (${where(found)})` : head + where(found);
  }
  const at = / > (?:eval|Function)/.test(line) ? null : AT_LINE.exec(line);
  if (!at) return line;
  const [, head, file, row, col] = at;
  const name = /([^@\s*]+)@$/.exec(head)?.[1];
  const short = name?.split(/[./]/).pop();
  const found = place(resolve, { file, line: +row, column: col ? +col : 0, name: short }, cold);
  if (!found) return line;
  const shown =
    found.name && name ? `${head.slice(0, -1 - name.length)}${renamed(name, found.name)}@` : head;
  return shown + where(found);
}

function place(
  resolve: ResolveFrame,
  frame: Frame & { name?: string },
  cold: Set<string> | undefined,
): Place | undefined {
  const found = resolve(frame, !!cold);
  if (!found) cold?.add(frame.file);
  return found;
}

/** `file:line:column`, `file:line` without a column, `file` alone without a line (generated code). */
const where = (p: Place) =>
  !p.line ? p.file : p.column ? `${p.file}:${p.line}:${p.column}` : `${p.file}:${p.line}`;

/** `e` -> `loadOrder`, `Object.e` -> `Object.loadOrder` (the part the map names). */
function renamed(printed: string, original: string): string {
  const alias = / \[as [^\]]*\]$/.exec(printed)?.[0] ?? '';
  const base = printed.slice(0, printed.length - alias.length);
  const cut = Math.max(base.lastIndexOf('.'), base.lastIndexOf('/'));
  return `${base.slice(0, cut + 1)}${original}${alias}`;
}
