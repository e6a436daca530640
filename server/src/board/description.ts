import type { Card } from '../store/types.ts';
import { escapedBytes, type Html, html } from './html.ts';

// A card's description rendered by its `description_type` (contract 11): stack traces as frames,
// JSON re-indented, everything else verbatim. All of it is text: the `html` tag escapes it.

export interface Frame {
  fn: string;
  location: string;
  /** Inside node_modules, Node's internals or native code. */
  dependency: boolean;
}
export type TraceLine = { frame: Frame } | { text: string };

const DEPENDENCY = /node_modules\/|^node:|^internal\/|^native$|^<anonymous>$/;
const GECKO_LOCATION = /:\d+(?::\d+)?$/;

const frame = (fn: string, location: string): TraceLine => ({
  frame: { fn, location, dependency: DEPENDENCY.test(location) },
});

/** Splits a trace into V8 (`at fn (file:1:2)`), Gecko/JavaScriptCore (`fn@file:1:2`) frames and text. */
export function parseTrace(text: string): TraceLine[] {
  return text.split('\n').map((raw): TraceLine => {
    const line = raw.trim();
    if (line.startsWith('at ')) {
      const rest = line.slice(3);
      const open = rest.lastIndexOf(' (');
      return rest.endsWith(')') && open > 0
        ? frame(rest.slice(0, open), rest.slice(open + 2, -1))
        : frame('', rest);
    }
    const at = line.indexOf('@');
    if (at >= 0 && !line.slice(0, at).includes(' ') && GECKO_LOCATION.test(line)) {
      return frame(line.slice(0, at), line.slice(at + 1));
    }
    return { text: raw.replace(/\r$/, '') };
  });
}

function renderTrace(text: string): Html {
  const groups: TraceLine[][] = [];
  for (const line of parseTrace(text)) {
    const last = groups.at(-1);
    if (last && 'frame' in last[0]! === 'frame' in line) last.push(line);
    else groups.push([line]);
  }
  let firstOwn = true;
  const items = groups.map((group) => {
    if (!('frame' in group[0]!)) {
      const text = group.map((l) => (l as { text: string }).text).join('\n');
      return html`<pre class="message">${'\n'}${text}</pre>`;
    }
    return html`<ol class="frames">${group.map((l) => {
      const f = (l as { frame: Frame }).frame;
      const own = !f.dependency && firstOwn;
      if (own) firstOwn = false;
      return html`<li class="${f.dependency ? 'dep' : own ? 'own first' : 'own'}"><span class="fn">${f.fn || '(anonymous)'}</span> <span class="loc">${f.location}</span></li>`;
    })}</ol>`;
  });
  return html`<div class="trace">${items}</div>`;
}

/**
 * Re-indents JSON text without parsing it, so numbers and strings keep their exact spelling
 * (JSON.parse would round 64-bit ids). Returns undefined when the result would grow past
 * 8 times the input (deep nesting), and the text is then shown as it came.
 */
export function prettyJson(text: string): string | undefined {
  const source = text.trim();
  const limit = source.length * 8 + 4096;
  let out = '';
  let depth = 0;
  const newline = () => `\n${'  '.repeat(Math.max(0, depth))}`;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < source.length && source[j] !== '"') j += source[j] === '\\' ? 2 : 1;
      out += source.slice(i, j + 1);
      i = j;
    } else if (c === '{' || c === '[') {
      let j = i + 1;
      while (/\s/.test(source[j] ?? '')) j++;
      if (source[j] === (c === '{' ? '}' : ']')) {
        out += c + source[j];
        i = j;
      } else {
        depth++;
        out += c + newline();
      }
    } else if (c === '}' || c === ']') {
      depth--;
      out += newline() + c;
    } else if (c === ',') out += `,${newline()}`;
    else if (c === ':') out += ': ';
    else if (!/\s/.test(c)) out += c;
    if (out.length > limit) return undefined;
  }
  return out;
}

export function renderDescription(text: string | null, type: Card['description_type']): Html {
  if (text === null || text.trim() === '') return html`<p class="muted">No description.</p>`;
  if (type === 'code') return renderTrace(text);
  const pretty = type === 'json' ? prettyJson(text) : undefined;
  // The parser drops one newline right after <pre>: this one, so the text's own stays.
  return html`<pre class="${pretty === undefined ? 'plain' : 'json'}">${'\n'}${pretty ?? text}</pre>`;
}

/** A description rendered within a byte budget, and how many of its characters it shows. */
export interface BoundedDescription {
  html: Html;
  /** Characters shown; less than the text's length when it was cut to fit. */
  shown: number;
}

/**
 * `renderDescription` within `maxBytes` of HTML: the longest start of the text whose escaped bytes
 * fit, rendered by type while that markup fits too (frames and re-indented JSON add to the text),
 * else as plain text. So a page holding it is bounded whatever the report.
 */
export function renderWithin(
  text: string | null,
  type: Card['description_type'],
  maxBytes: number,
): BoundedDescription {
  if (text === null) return { html: renderDescription(text, type), shown: 0 };
  const part = prefixWithin(text, maxBytes - 64);
  const typed = renderDescription(part, type);
  const fits = Buffer.byteLength(typed.markup) <= maxBytes;
  return { html: fits ? typed : renderDescription(part, 'plain'), shown: part.length };
}

/** The longest start of `text` whose escaped UTF-8 is at most `maxBytes` (whole code points). */
export function prefixWithin(text: string, maxBytes: number): string {
  if (text.length * 6 <= maxBytes) return text; // no character escapes to more than 6 bytes
  let used = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    const pair = code >= 0xd800 && code < 0xdc00 && next >= 0xdc00 && next < 0xe000;
    used += pair ? 4 : code < 0x80 ? escapedBytes(text[i]!) : code < 0x800 ? 2 : 3;
    if (used > maxBytes) return text.slice(0, i);
    if (pair) i++;
  }
  return text;
}
