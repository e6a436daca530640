import { html } from './html.ts';

// Numbers and times as the board shows them: thousands separators, UTC, and relative ages.

export const HOUR = 3_600_000;
export const DAY = 86_400_000;

const numbers = new Intl.NumberFormat('en-US');
export const count = (n: number): string => numbers.format(n);
/** `text` cut to at most `chars` characters, `…` marking a cut (never inside a surrogate pair). */
export function clip(text: string, chars: number): string {
  if (text.length <= chars) return text;
  let end = chars - 1;
  if (/[\uD800-\uDBFF]/.test(text[end - 1] ?? '')) end--;
  return `${text.slice(0, end)}…`;
}

/** `src/pay.ts:40`, or the file alone when the line is not known. */
export const place = (file: string, line: number | null): string =>
  line === null ? file : `${file}:${line}`;

/** `1 report`, `1,234 reports`. */
export const counted = (n: number, noun: string): string =>
  `${count(n)} ${noun}${n === 1 ? '' : 's'}`;

/** `2026-11-22 20:55:42 UTC`. */
export const utc = (ms: number): string =>
  `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;

/** `just now`, `5 min ago`, `3 h ago`, `2 d ago`; the future (clock skew) reads as `just now`. */
export function ago(ms: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - ms) / 1000));
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return `${Math.floor(seconds / 86_400)} d ago`;
}

/** A relative age with the exact UTC time as its tooltip and machine-readable value. */
export const time = (ms: number, now: number) =>
  html`<time datetime="${new Date(ms).toISOString()}" title="${utc(ms)}">${ago(ms, now)}</time>`;

/** `42 %`; a share above zero never reads as `0 %`. */
export function percent(part: number, whole: number): string {
  if (whole <= 0) return '–';
  const share = (part / whole) * 100;
  return share > 0 && share < 1 ? '< 1 %' : `${Math.round(share)} %`;
}
