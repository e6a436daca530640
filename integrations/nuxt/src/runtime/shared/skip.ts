// Which errors the plugins report. Pure functions (no Nuxt or h3 imports) so they are unit-tested
// against real NuxtError / H3Error instances.

type Maybe = { [key: string]: unknown } | null | undefined;

/** Status of an H3Error or NuxtError (`statusCode`, or the newer `status` alias); else undefined. */
export function statusOf(error: unknown): number | undefined {
  const e = error as Maybe;
  if (!e || typeof e !== 'object') return undefined;
  const status = typeof e.statusCode === 'number' ? e.statusCode : e.status;
  return typeof status === 'number' ? status : undefined;
}

/** True for an h3 `H3Error` (its class carries `__h3_error__`), NuxtError included. */
export function isH3Error(error: unknown): boolean {
  const ctor = (error as Maybe)?.constructor as Maybe;
  return Boolean(ctor && (ctor as { __h3_error__?: unknown }).__h3_error__ === true);
}

/** True for a NuxtError (made by Nuxt's `createError`, flagged `__nuxt_error`). */
export function isNuxtError(error: unknown): boolean {
  return Boolean(error && typeof error === 'object' && '__nuxt_error' in error);
}

/** Browser rule: skip a NuxtError whose status is 300 to 499 (redirects, not-found, auth). */
export function shouldReportClientError(error: unknown): boolean {
  if (!isNuxtError(error)) return true;
  const status = statusOf(error);
  return !(status !== undefined && status >= 300 && status <= 499);
}

/** Server rule: skip an H3Error (NuxtError is one) with a 3xx or 4xx status. */
export function shouldReportServerError(error: unknown): boolean {
  if (!isH3Error(error) && !isNuxtError(error)) return true;
  const status = statusOf(error);
  return !(status !== undefined && status >= 300 && status <= 499);
}

/**
 * h3 wraps a plain thrown error into an H3Error 500 with the original as `cause`; report the
 * original so its name, message, stack and throw site reach the card.
 */
export function unwrapError(error: unknown): unknown {
  const e = error as Maybe;
  if ((isH3Error(error) || isNuxtError(error)) && e?.cause instanceof Error) return e.cause;
  return error;
}
