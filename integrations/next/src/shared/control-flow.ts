// Next.js signals redirects, 404s and rendering bail-outs by throwing. These are not bugs and must
// never become cards, on the server (onRequestError) or in the browser (error boundaries).

/** Digest / message prefixes of Next's control-flow errors. */
const CONTROL_FLOW_PREFIXES = [
  'NEXT_REDIRECT', // redirect(), permanentRedirect()
  'NEXT_NOT_FOUND', // notFound() before Next 15
  'NEXT_HTTP_ERROR_FALLBACK;', // notFound(), forbidden(), unauthorized(): "NEXT_HTTP_ERROR_FALLBACK;404"
  'BAILOUT_TO_CLIENT_SIDE_RENDERING', // useSearchParams() without Suspense during prerender
  'DYNAMIC_SERVER_USAGE', // dynamic API during static generation
  'NEXT_PRERENDER_INTERRUPTED', // prerender aborted on purpose
];

const POSTPONE = Symbol.for('react.postpone');

function readString(value: unknown, key: 'digest' | 'message' | 'name'): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const field = (value as Record<string, unknown>)[key];
  return typeof field === 'string' ? field : undefined;
}

function hasControlFlowMark(text: string | undefined): boolean {
  return text !== undefined && CONTROL_FLOW_PREFIXES.some((prefix) => text.startsWith(prefix));
}

/**
 * True for errors Next throws for control flow (redirect, notFound, HTTP fallbacks, bail-outs,
 * React postpone). Follows `cause` a few levels, because React may wrap the original error.
 */
export function isControlFlowError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current != null; depth++) {
    if (typeof current === 'object' && (current as { $$typeof?: unknown }).$$typeof === POSTPONE) {
      return true;
    }
    if (hasControlFlowMark(readString(current, 'digest'))) return true;
    if (hasControlFlowMark(readString(current, 'message'))) return true;
    current = typeof current === 'object' ? (current as { cause?: unknown }).cause : undefined;
  }
  return false;
}

/** The `digest` Next attaches to server errors (a hash also shown to the browser), if any. */
export function readDigest(error: unknown): string | undefined {
  const digest = readString(error, 'digest');
  return digest && digest.length > 0 ? digest : undefined;
}
