// One card title format for every integration. A card groups on its title (contract 4: a title
// that varies per event never deduplicates), so a title holds the error's class, the first line of
// its message with the per-event parts masked, and where it happened (a route pattern, never a
// concrete URL): `TypeError: order <n> has no lines (POST /orders/:id)`. The message and stack
// themselves go into the description, unmasked.

/** Longest message part of a title; the place after it stays visible. */
const MESSAGE_MAX = 120;

/** Per-event parts of a message and what replaces them, applied in this order. */
const VOLATILE: readonly [RegExp, string][] = [
  [/\b[a-z][a-z0-9+.-]*:\/\/[^\s'"`<>)\]]+/gi, '<url>'],
  [/[\w.+-]+@[\w-]+(\.[\w-]+)+/g, '<email>'],
  // A quote that opens and closes outside a word (so `can't` and `user's` are no quotes).
  [/(?<!\w)('[^'\n]*'|"[^"\n]*"|`[^`\n]*`)(?!\w)/g, '<value>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  // Hex with a letter and a digit (all digits is a number, below).
  [/\b(?=\d*[a-f])(?=[a-f]*\d)[0-9a-f]{8,}\b/gi, '<hash>'],
  [/\b(?=[a-z_-]*\d)(?=\w*[a-z])[\w-]{8,}\b/gi, '<id>'],
  [/(?<![\w.])-?\d+(\.\d+)?(?![\w.])/g, '<n>'],
];

/** `text` with numbers, ids, uuids, hashes, URLs, e-mail addresses and quoted values masked. */
export function maskVolatile(text: string): string {
  let masked = text;
  for (const [pattern, placeholder] of VOLATILE) masked = masked.replace(pattern, placeholder);
  return masked;
}

function field(value: unknown, key: 'name' | 'message'): string | undefined {
  try {
    const found = (value as Record<string, unknown> | null)?.[key];
    return typeof found === 'string' && found.trim() ? found : undefined;
  } catch {
    return undefined;
  }
}

/** The error's class name (`TypeError`), `Error` for a thrown value that is not an error object. */
export function errorName(error: unknown): string {
  return (typeof error === 'object' && field(error, 'name')) || 'Error';
}

/** The first non-empty line of an error's message (or of a thrown string), masked and shortened. */
export function stableMessage(error: unknown): string {
  let text: string | undefined;
  try {
    text = typeof error === 'object' && error !== null ? field(error, 'message') : String(error);
  } catch {
    text = undefined;
  }
  const line = text?.split('\n').find((candidate) => candidate.trim()) ?? '';
  const masked = maskVolatile(line.trim());
  return masked.length > MESSAGE_MAX ? `${masked.slice(0, MESSAGE_MAX - 3)}...` : masked;
}

/**
 * The card title of `error` at `place` (a route pattern such as `GET /orders/:id`, or a place of
 * the failure table, see `failures.ts`): `Name: masked message (place)`, or `Name (place)`
 * without a message.
 */
export function errorTitle(error: unknown, place?: string): string {
  const message = error == null ? '' : stableMessage(error);
  const head = message ? `${errorName(error)}: ${message}` : errorName(error);
  return place ? `${head} (${place})` : head;
}
