// What source maps add to a card (and a variant): the original source lines around the top frame
// of the project's own code (from the map's `sourcesContent`), and the raw frames page, the
// description as the SDK sent it with what became of each frame. All text goes through `html`.
import type { FrameNote } from '../../sourcemaps/rewrite.ts';
import { UNMAPPED_REASONS } from '../../sourcemaps/rewrite.ts';
import { count } from '../format.ts';
import { escapedBytes, type Html, html } from '../html.ts';

/** Lines shown before and after the frame's line. */
export const CONTEXT_LINES = 5;
/** Characters of each source line shown (minified or generated lines can be very long). */
const LINE_CHARS = 300;

/** A card's code context: the lines around `line` of `file`, or why it is gone. */
export type CodeView =
  | { file: string; line: number; first: number; lines: string[] }
  | { file: string; line: number; gone: true };

/** The lines around `line` (1-based) of a source's text. */
export function codeView(file: string, line: number, text: string): CodeView {
  const all = text.split('\n');
  const first = Math.max(1, line - CONTEXT_LINES);
  const last = Math.min(all.length, line + CONTEXT_LINES);
  return { file, line, first, lines: all.slice(first - 1, last) };
}

export function codeBlock(code: CodeView | undefined, rawHref: string | undefined): Html | '' {
  if (!code && !rawHref) return '';
  const raw = rawHref
    ? html`<p class="muted">Frames mapped through the build's source maps. <a href="${rawHref}">The frames as sent</a></p>`
    : '';
  if (!code) return raw;
  const head = html`<h2>Code <span class="muted">(<code>${code.file}:${code.line}</code>)</span></h2>`;
  if ('gone' in code) {
    return html`${head}<p class="muted">The source is no longer kept (its release's source maps were deleted).</p>${raw}`;
  }
  const rows = code.lines.map((text, i) => {
    const n = code.first + i;
    const shown = text.length > LINE_CHARS ? `${text.slice(0, LINE_CHARS)}…` : text;
    return html`<li${n === code.line ? html` class="hit"` : ''} value="${n}">${shown}</li>`;
  });
  return html`${head}<ol class="code" start="${code.first}">${rows}</ol>${raw}`;
}

/** The raw description, each frame line followed by where it was mapped or why it was not. */
export function rawFrames(
  raw: { description: string | null; fileName: string | null; lineNumber: number | null },
  notes: FrameNote[],
  maxBytes: number,
): Html {
  const byLine = new Map(notes.map((n) => [n.line, n]));
  const lines = (raw.description ?? '').split('\n');
  const items: Html[] = [];
  let bytes = 0;
  for (const [i, text] of lines.entries()) {
    for (const char of text) bytes += escapedBytes(char);
    if (bytes > maxBytes) break;
    const note = byLine.get(i);
    const what = !note
      ? ''
      : note.place
        ? html` <span class="mapped">→ ${note.place}</span>`
        : html` <span class="unmapped">(${UNMAPPED_REASONS[note.reason!]})</span>`;
    items.push(html`<li${note ? html` class="frame"` : ''}>${text}${what}</li>`);
  }
  const cut =
    items.length < lines.length
      ? html`<p class="muted">Showing ${count(items.length)} of ${count(lines.length)} lines.</p>`
      : '';
  const location =
    raw.fileName === null
      ? ''
      : html`<p>Location as sent: <code>${raw.fileName}${raw.lineNumber === null ? '' : `:${raw.lineNumber}`}</code></p>`;
  return html`${location}<ol class="raw">${items}</ol>${cut}`;
}
