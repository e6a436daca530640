// Escape-by-default HTML: every interpolated value is escaped unless it is an `Html` made by the
// `html` tag itself, so a report value can never reach the page as markup. Attribute values are
// always written in double quotes, where the same escaping applies.

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

/** Bytes of one character (a code point) once escaped and encoded as UTF-8. */
export const escapedBytes = (char: string): number =>
  ENTITIES[char]?.length ?? Buffer.byteLength(char);

/** Markup built by `html`; the only value interpolated without escaping. */
export class Html {
  constructor(readonly markup: string) {}
  toString(): string {
    return this.markup;
  }
}

export type Part = Html | string | number | null | undefined | false | readonly Part[];

const render = (part: Part): string => {
  if (part instanceof Html) return part.markup;
  if (Array.isArray(part)) return part.map(render).join('');
  if (part === null || part === undefined || part === false) return '';
  return escapeHtml(String(part));
};

/** Tagged template: `html\`<td>${title}</td>\`` escapes `title`; nested `html` and arrays compose. */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new Html(out);
}
