// Full-text search of a project's cards: title, description (stack included), file name and tags,
// each card's text split into words at every character that is not a letter or a digit (SQLite's
// unicode61 tokenizer; PostgreSQL's `simple` parser after ASCII punctuation is made spaces), case
// folded. A search is words separated by spaces; a card matches when it holds every word, a word
// of several parts (`pay.ts:40`) as those parts in a row, the last part of each word a prefix
// (`check` finds `checkout`). Both stores index the words (SQLite FTS5 `cards_search`, PostgreSQL
// a GIN index over `card_search.doc`), each card with its project as a word of its own.

/** One word of a search: its text (split as the index splits it) and whether its end is a prefix. */
export interface SearchWord {
  text: string;
  prefix: boolean;
}

/** A search of one project's cards. */
export interface SearchTerms {
  projectId: number;
  words: readonly SearchWord[];
  /**
   * PostgreSQL: the search as tsquery text, made once by the server (`tsQueryText`), so every
   * statement of the page binds it as a value the planner can weigh against the column's word
   * statistics (a common word: read the table until enough match; a rare one: the GIN index).
   */
  tsquery?: string;
}

/** How many cards a search reads by id before it reads the sort's index instead (many match). */
export const SEARCH_IDS = 2_000;

const WORDY = /[\p{L}\p{N}]/u;

/** The words of a search box's text; words without a letter or digit match anything and go. */
export function searchWords(text: string | undefined, prefix = true): SearchWord[] {
  if (text === undefined) return [];
  return text
    .split(/[\s\p{Cc}]+/u)
    .filter((w) => WORDY.test(w))
    .map((w) => ({ text: w.toLowerCase(), prefix }));
}

/**
 * The search a cards query stands for: its text's words, and its tag as one exact phrase (the tag
 * itself is then checked exactly); undefined when neither gives a word.
 */
export function searchOf(
  projectId: number,
  q: { text?: string; tag?: string },
): SearchTerms | undefined {
  const words = searchWords(q.text);
  if (q.tag !== undefined && WORDY.test(q.tag)) {
    words.push({ text: q.tag.replace(/\p{Cc}/gu, ' ').toLowerCase(), prefix: false });
  }
  return words.length > 0 ? { projectId, words } : undefined;
}

/** The SQLite FTS5 query: the project's word, then every search word as a phrase. */
export function ftsQuery(t: SearchTerms): string {
  const phrase = (w: SearchWord) => `"${w.text.replaceAll('"', '""')}"${w.prefix ? '*' : ''}`;
  return `project : "p${t.projectId}" AND body : (${t.words.map(phrase).join(' AND ')})`;
}

// PostgreSQL's words are split at ASCII punctuation (made spaces) before its parser runs, as the
// index's `svc_search_words` does (PostgreSQL migration 6).
const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
const SPACES = ' '.repeat(PUNCTUATION.length);

/**
 * The PostgreSQL tsquery of a search, as SQL: the project's lexeme and every word as a phrase
 * (`phraseto_tsquery`), its last lexeme a prefix where asked. `bind` gives each value's placeholder.
 */
export function tsQuery(t: SearchTerms, bind: (value: string) => string): string {
  if (t.tsquery !== undefined) return `${bind(t.tsquery)}::tsquery`;
  const from = bind(PUNCTUATION);
  const to = bind(SPACES);
  const phrase = (w: SearchWord) => {
    const p = `phraseto_tsquery('simple', translate(${bind(w.text)}, ${from}, ${to}))`;
    return w.prefix
      ? `(SELECT CASE WHEN p::text = '' THEN p ELSE (p::text || ':*')::tsquery END FROM ${p} AS p)`
      : p;
  };
  return `(${[`${bind(`'project:${t.projectId}'`)}::tsquery`, ...t.words.map(phrase)].join(' && ')})`;
}
