// The service address: a deployment setting beside the options of contract 8.5, never one of them
// (spec/README.md says why). Resolved once, when a client is created.
import { SERVICE_URL } from '../generated/service.gen.ts';

/** An absolute http(s) URL, without query or fragment. */
const ABSOLUTE = /^https?:\/\/[^/?#\s]+[^?#\s]*$/i;

/**
 * The first value that is set (not null, undefined or empty): the explicit `serviceUrl`, then the
 * environment's, then the generated default. Returns the URL (trimmed, without trailing slash),
 * or undefined when that value is not an absolute http(s) URL, and the value itself.
 */
export function resolveServiceUrl(
  explicit: unknown,
  fromEnv: unknown,
): [string | undefined, unknown] {
  const given = explicit || fromEnv || SERVICE_URL;
  const text = typeof given === 'string' ? given.trim() : '';
  return [ABSOLUTE.test(text) ? text.replace(/\/+$/, '') : undefined, given];
}
