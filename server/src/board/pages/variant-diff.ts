import type { BoardCard, BoardVariant } from '../../store/board-types.ts';
import { diffLines, diffWords, type WordPart } from '../diff.ts';
import { clip } from '../format.ts';
import { type Html, html } from '../html.ts';

/** Differing lines listed under a variant's summary; more are counted, not shown. */
const SHOWN_LINES = 12;
/** Characters of each differing line shown (the variant's own page has them whole). */
const LINE_CHARS = 120;
/** Characters of unchanged text kept on each side of a change within a line. */
const CONTEXT_CHARS = 24;

/** Unchanged text of a changed line, shortened to what is next to the changes. */
function context(text: string, first: boolean, last: boolean): string {
  if (first && last) return text;
  if (first) return text.length > CONTEXT_CHARS ? `…${text.slice(-CONTEXT_CHARS)}` : text;
  if (last) return text.length > CONTEXT_CHARS ? `${text.slice(0, CONTEXT_CHARS)}…` : text;
  return text.length > 2 * CONTEXT_CHARS
    ? `${text.slice(0, CONTEXT_CHARS)}…${text.slice(-CONTEXT_CHARS)}`
    : text;
}

/**
 * A changed line as the parts that differ: unchanged text (shortened around the changes), then
 * each change as what the first report had, struck, and what this variant has; within
 * `LINE_CHARS` characters of text.
 */
function words(parts: WordPart[]): Html {
  let left = LINE_CHARS;
  const shown: Html[] = [];
  for (const [i, p] of parts.entries()) {
    if (left <= 0) {
      shown.push(html`…`);
      break;
    }
    if ('same' in p) {
      const kept = context(p.same, i === 0, i === parts.length - 1);
      const text = clip(i === 0 ? kept.trimStart() : kept, left);
      left -= text.length;
      shown.push(html`${text}`);
      continue;
    }
    const from = clip(p.from, Math.max(1, Math.min(left, LINE_CHARS / 2)));
    const to = clip(p.to, Math.max(1, left - from.length));
    left -= from.length + to.length;
    const arrow = from && to ? html`<span class="to">→</span>` : '';
    shown.push(
      html`${from ? html`<del>${from}</del>` : ''}${arrow}${to ? html`<ins>${to}</ins>` : ''}`,
    );
  }
  return html`<span class="words">${shown}</span>`;
}

/** Changed lines paired (the k-th missing with the k-th added) where they share words. */
function pairLines(removed: string[], added: string[]) {
  const pairs: WordPart[][] = [];
  const alone = { removed: [] as string[], added: [] as string[] };
  const n = Math.max(removed.length, added.length);
  for (let k = 0; k < n; k++) {
    const parts = k < removed.length && k < added.length ? diffWords(removed[k]!, added[k]!) : null;
    if (parts) pairs.push(parts);
    else {
      if (k < removed.length) alone.removed.push(removed[k]!);
      if (k < added.length) alone.added.push(added[k]!);
    }
  }
  return { pairs, alone };
}

/**
 * What tells a variant apart from the card's first report (its frozen title, description and
 * location), as the parts that differ: a message that differs by an id shows `123` → `456` in the
 * line, not two whole lines. A short hint for the collapsed row (the first change, or `the first
 * report`) and every change, `~` a changed line, `+` added and `−` missing, for the open one.
 */
export function variantDiff(card: BoardCard, v: BoardVariant): { summary: Html; body: Html } {
  const cut = v.description !== null && v.descriptionLength > v.description.length;
  const { added, removed } = diffLines(card.description, v.description, cut);
  const title = v.title !== null && v.title !== card.title ? diffWords(card.title, v.title) : null;
  const { pairs, alone } = pairLines(removed, added);
  const changes = [
    ...(title ? [html`<span class="muted">title</span> ${words(title)}`] : []),
    ...pairs.map((parts) => html`~ ${words(parts)}`),
    ...alone.removed.map((line) => html`<del>− ${clip(line, LINE_CHARS)}</del>`),
    ...alone.added.map((line) => html`<ins>+ ${clip(line, LINE_CHARS)}</ins>`),
  ];
  if (changes.length === 0) {
    const sameRest =
      (v.title === null || v.title === card.title) &&
      v.fileName === card.fileName &&
      v.lineNumber === card.lineNumber;
    const summary =
      sameRest && !cut ? html` · <span class="muted">the first report</span>` : html``;
    return { summary, body: html`` };
  }
  const first = title
    ? words(title)
    : pairs[0]
      ? words(pairs[0])
      : alone.added[0] !== undefined
        ? html`+ ${clip(alone.added[0].trim(), LINE_CHARS)}`
        : html`− ${clip(alone.removed[0]!.trim(), LINE_CHARS)}`;
  const more = changes.length - 1;
  const summary = html` · <code class="hint">${first}</code>${more > 0 ? html` <span class="muted">(${more} more ${more === 1 ? 'change' : 'changes'})</span>` : ''}`;
  const hidden = changes.length - SHOWN_LINES;
  const body = html`<pre class="diff" aria-label="What differs from the first report">${changes.slice(0, SHOWN_LINES).map((l, i) => (i === 0 ? l : html`\n${l}`))}${hidden > 0 ? html`\n<span class="muted">… ${hidden} more changes</span>` : ''}</pre>`;
  return { summary, body };
}
