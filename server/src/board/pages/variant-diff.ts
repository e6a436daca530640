import type { BoardCard, BoardVariant } from '../../store/board-types.ts';
import { diffLines } from '../diff.ts';
import { clip } from '../format.ts';
import { type Html, html } from '../html.ts';

/** Differing lines listed under a variant's summary; more are counted, not shown. */
const SHOWN_LINES = 12;
/** Characters of each differing line shown (the variant's own page has them whole). */
const LINE_CHARS = 120;

/**
 * What tells a variant apart from the card's first report (its frozen description and location):
 * a short hint for the collapsed row (the first differing line, or `same as the first report`)
 * and the differing lines, `+` added and `−` missing, for the open one.
 */
export function variantDiff(card: BoardCard, v: BoardVariant): { summary: Html; body: Html } {
  const cut = v.description !== null && v.descriptionLength > v.description.length;
  const { added, removed } = diffLines(card.description, v.description, cut);
  const sameBody = added.length === 0 && removed.length === 0;
  const sameRest =
    (v.title === null || v.title === card.title) &&
    v.fileName === card.fileName &&
    v.lineNumber === card.lineNumber;
  if (sameBody) {
    const summary =
      sameRest && !cut ? html` · <span class="muted">the first report</span>` : html``;
    return { summary, body: html`` };
  }
  const first = added[0] ?? removed[0]!;
  const sign = added.length > 0 ? '+' : '−';
  const more = added.length + removed.length - 1;
  const summary = html` · <code class="hint">${sign} ${clip(first.trim(), LINE_CHARS)}</code>${more > 0 ? html` <span class="muted">(${more} more ${more === 1 ? 'line' : 'lines'})</span>` : ''}`;
  const lines = [
    ...removed.map((line) => html`<del>− ${clip(line, LINE_CHARS)}</del>`),
    ...added.map((line) => html`<ins>+ ${clip(line, LINE_CHARS)}</ins>`),
  ];
  const hidden = lines.length - SHOWN_LINES;
  const body = html`<pre class="diff" aria-label="Lines that differ from the first report">${lines.slice(0, SHOWN_LINES).map((l, i) => (i === 0 ? l : html`\n${l}`))}${hidden > 0 ? html`\n<span class="muted">… ${hidden} more differing lines</span>` : ''}</pre>`;
  return { summary, body };
}
