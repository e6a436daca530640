// One attempt of a delivery (part of the lazy transport chunk): the auth headers (signed requests
// are signed again for a retry or an old signature), then the platform's sender (Node's
// node:http) or `fetch`, and its debug line when it failed.
import { errorMessageFor, errorNameFor } from '../generated/error-names.gen.ts';
import type { Prepared, Reply, TransportContext } from './send.ts';

/** A prepared signature older than this is renewed before the first attempt (skew window is 300 s). */
const SIGNATURE_MAX_AGE_MS = 60_000;

/** Attempt `retry` (0 first) of `p`; `keepalive` (browser unload): the prepared headers, `fetch`. */
export async function attempt(
  ctx: TransportContext,
  p: Prepared,
  retry: number,
  keepalive: boolean,
): Promise<Reply> {
  let auth = p.auth;
  if (
    !keepalive &&
    ctx.signed &&
    (retry || (ctx.deps.now ?? Date.now)() - p.at > SIGNATURE_MAX_AGE_MS)
  )
    auth = await ctx.auth(p.body);
  return ctx.send && !keepalive ? ctx.send(ctx, auth, p) : viaFetch(ctx, auth, p, keepalive);
}

/**
 * One attempt with `fetch` (browsers, edge runtimes, an injected `fetch`): `timeoutMs`, or the end
 * of an exit flush, aborts it.
 */
async function viaFetch(
  ctx: TransportContext,
  auth: Record<string, string>,
  p: Prepared,
  keepalive: boolean,
): Promise<Reply> {
  const controller = new AbortController();
  const abort = () => controller.abort();
  const timer = setTimeout(abort, ctx.config.timeoutMs);
  ctx.attempts ??= new Set();
  const attempts = ctx.attempts;
  attempts.add(abort);
  let status: number | undefined;
  try {
    const res = await ctx.post(ctx, auth, p.body, { signal: controller.signal, keepalive });
    status = res.status;
    return { status, text: await res.text(), retryAfter: res.headers.get('retry-after') };
  } catch (cause) {
    return { status, cause, timedOut: controller.signal.aborted };
  } finally {
    clearTimeout(timer);
    attempts.delete(abort);
  }
}

/**
 * The debug line of a failed attempt, rendered like the error `errorFromResponse` would build
 * (`SvcAuthError: message`, then the cause), by name: the error classes stay out of every chunk a
 * client loads by itself.
 */
export function logFailedAttempt(
  ctx: TransportContext,
  retry: number,
  again: boolean,
  reply: Reply,
  body: unknown,
): void {
  ctx.debug.log(`attempt ${retry + 1} failed${again ? ', will retry' : ''}:`, () =>
    reply.status === undefined
      ? {
          name: errorNameFor(undefined),
          message: reply.timedOut
            ? `request timed out after ${ctx.config.timeoutMs} ms`
            : 'network error',
          stack: '',
          cause: reply.cause,
        }
      : {
          name: errorNameFor(reply.status),
          message: errorMessageFor(reply.status, body as Record<string, unknown> | undefined),
          stack: '',
        },
  );
}
