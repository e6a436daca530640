// The service address: a deployment setting beside the options of contract 8.5, never one of them
// (spec/README.md says why). Resolved once, when a client is created.
import { SERVICE_URL } from '../generated/service.gen.ts';

/** An absolute http(s) URL, without query or fragment. */
const ABSOLUTE = /^https?:\/\/[^/?#\s]+[^?#\s]*$/i;

/**
 * The first value that is set (not null, undefined or empty): the explicit `serviceUrl`, then the
 * environment's, then the generated default. `url` is undefined when that value is not an absolute
 * http(s) URL; a trailing slash is trimmed.
 */
export function resolveServiceUrl(...candidates: unknown[]): { url?: string; given: unknown } {
  const given = candidates.find((v) => v != null && v !== '') ?? SERVICE_URL;
  const text = typeof given === 'string' ? given.trim() : '';
  return { url: ABSOLUTE.test(text) ? text.replace(/\/+$/, '') : undefined, given };
}
