// Delivers one prepared report: one POST per attempt, retries with backoff, re-signing each retry.
// A lazy chunk, loaded when a client prepares its first report (see ./send.ts).
import { errorMessageFor, errorNameFor } from '../generated/error-names.gen.ts';
import { isRetryable, parseRetryAfter } from '../generated/retry.gen.ts';
import type { components } from '../generated/wire.gen.ts';
import type { Bucket } from './counters.ts';
import { admit, createLink, failed, settle } from './link.ts';
import {
  CREDENTIALS_REFUSED,
  EXIT_GAVE_UP,
  HOST_NOT_FOUND,
  type MessageName,
  NO_SERVICE_THERE,
  UNREACHABLE,
} from './messages.ts';
import { backoffMs } from './retry.ts';
import type { Prepared, Reply, TransportContext } from './send.ts';

/** A prepared signature older than this is renewed before the first attempt (skew window is 300 s). */
const SIGNATURE_MAX_AGE_MS = 60_000;

/**
 * The kind of a delivery failure that a user can fix (a message name of ./messages.ts) and its
 * detail, or undefined for failures that say nothing about the setup (5xx, 422, 429...).
 */
export function failureKind(
  status: number | undefined,
  cause: unknown,
  timedOut: boolean,
): [MessageName, string] | undefined {
  if (status === 401 || status === 403) return [CREDENTIALS_REFUSED, `HTTP ${status}`];
  if (status === 404 || status === 405) return [NO_SERVICE_THERE, `HTTP ${status}`];
  if (status !== undefined) return undefined;
  if (timedOut) return [UNREACHABLE, 'no answer before timeoutMs'];
  // Node's fetch: TypeError('fetch failed', { cause: { code: 'ENOTFOUND' } }); browsers say less.
  let code: unknown;
  for (let link = cause, depth = 0; link && typeof link === 'object' && depth < 4; depth++) {
    code ??= (link as { code?: unknown }).code;
    link = (link as { cause?: unknown }).cause;
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return [HOST_NOT_FOUND, code];
  return [
    UNREACHABLE,
    code === 'ECONNREFUSED' ? 'connection refused' : `network error${code ? ` (${code})` : ''}`,
  ];
}

type Schemas = components['schemas'];
/** A 2xx body as the spec shapes it (created, deduplicated or dropped); any key may be missing. */
export type Answer = Partial<
  Omit<Schemas['TaskDropped'], 'dropped'> & {
    dropped: boolean;
    deduplicated:
      Schemas['TaskCreated']['deduplicated'] | Schemas['TaskDeduplicated']['deduplicated'];
  }
>;

/** A 2xx body's outcome: `dropped` (or its legacy alias) first; an absent `deduplicated` is false. */
export function outcomeOf(answer: Answer | undefined): Bucket {
  if (answer?.dropped === true || answer?.quota_exceeded === true) {
    return answer.reason === 'paused' || answer.reason === 'archived' ? answer.reason : 'quota';
  }
  return answer?.deduplicated === true ? 'deduplicated' : 'sent';
}

/**
 * Sends with retries and resolves with the outcome; never rejects. `keepalive` (browser unload):
 * one attempt with the prepared headers, nothing asynchronous before the request starts. While the
 * service is known unreachable, waits for the probe (./link.ts) instead of retrying on its own; at
 * exit (`ctx.stop` aborted) gives up at once, attempts and waits included.
 */
export async function deliver(
  ctx: TransportContext,
  p: Prepared,
  keepalive = false,
): Promise<Bucket> {
  ctx.link ??= createLink();
  const link = ctx.link;
  // Queued before the probe gave up: the service is unreachable, not retried report by report.
  if (!keepalive && p.at < (link.gaveUpAt as number)) return 'failed';
  for (let retry = 0; ; retry++) {
    if (ctx.stop?.aborted) return stopped(ctx);
    // True at once unless another report is probing (no await: one tick less per report).
    const admitted = keepalive || admit(link, p, ctx.stop);
    if (admitted !== true && !(await admitted)) return ctx.stop?.aborted ? stopped(ctx) : 'failed';
    let auth = p.auth;
    if (
      !keepalive &&
      ctx.signed &&
      (retry || (ctx.deps.now ?? Date.now)() - p.at > SIGNATURE_MAX_AGE_MS)
    )
      auth = await ctx.auth(p.body);
    const reply = await (ctx.send && !keepalive
      ? ctx.send(ctx, auth, p)
      : viaFetch(ctx, auth, p, keepalive));
    const status = reply.status;
    let body: (Answer & Record<string, unknown>) | undefined;
    // No text: the request failed (no answer, or its body could not be read).
    const failure =
      reply.text === undefined
        ? {
            message: reply.timedOut
              ? `request timed out after ${ctx.config.timeoutMs} ms`
              : 'network error',
            cause: reply.cause,
          }
        : undefined;
    try {
      body = reply.text ? JSON.parse(reply.text) : undefined;
    } catch {
      // not JSON: handled as an absent body
    }
    if (ctx.stop?.aborted && status === undefined) return stopped(ctx);
    // Any answer shows the service reachable; a network failure makes this report the probe.
    if (status !== undefined) settle(link, true);
    else if (!keepalive) failed(link, p);
    if ((status as number) > 199 && (status as number) < 300) {
      const outcome = outcomeOf(body && typeof body === 'object' ? body : undefined);
      if (ctx.config.debug) ctx.debug.log(`delivered: ${outcome} (HTTP ${status})`);
      return outcome;
    }
    const again = !keepalive && isRetryable(status) && retry < ctx.config.maxRetries;
    ctx.debug.log(
      `attempt ${retry + 1} failed${again ? ', will retry' : ''}:`,
      // Rendered like the error errorFromResponse would build (`SvcAuthError: message`, then the
      // cause), by name: the error classes stay out of every chunk a client loads by itself.
      () =>
        failure
          ? {
              name: errorNameFor(undefined),
              message: failure.message,
              stack: '',
              cause: failure.cause,
            }
          : {
              name: errorNameFor(status),
              message: errorMessageFor(status as number, body),
              stack: '',
            },
    );
    const kind = failureKind(status, failure?.cause, !!reply.timedOut);
    ctx.lastFailure = kind?.[1] ?? `HTTP ${status}`;
    const probing = status === undefined && link.probe === p;
    // Another report is probing: wait for it (./link.ts) rather than retry on our own.
    if (again && status === undefined && !probing) continue;
    if (!again) {
      if (status === undefined && !probing) return 'failed'; // the probe warns for all
      // One visible line per client and kind of failure, with the address and the fix.
      ctx.warned ??= new Set();
      if (kind && !ctx.warned.has(kind[0])) {
        ctx.warned.add(kind[0]);
        ctx.debug.warn(kind[0], ctx.url, kind[1]);
      }
      if (!probing) return 'failed';
      // The waiting reports fail with the probe, and so do the ones queued until now.
      link.gaveUpAt = (ctx.deps.now ?? Date.now)();
      settle(link, false);
      return 'failed';
    }
    await pause(
      ctx,
      backoffMs(retry, parseRetryAfter(reply.retryAfter), ctx.deps.random ?? Math.random),
    );
  }
}

/**
 * One attempt with `fetch` (browsers, edge runtimes, an injected `fetch`): `timeoutMs`, and the exit
 * deadline for an attempt started after it was set, abort it.
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
  ctx.stop?.addEventListener('abort', abort);
  let status: number | undefined;
  try {
    const res = await ctx.post(ctx, auth, p.body, { signal: controller.signal, keepalive });
    status = res.status;
    return { status, text: await res.text(), retryAfter: res.headers.get('retry-after') };
  } catch (cause) {
    return { status, cause, timedOut: controller.signal.aborted };
  } finally {
    clearTimeout(timer);
    ctx.stop?.removeEventListener('abort', abort);
  }
}

/** A report given up because the process exits (counted for the one exit warning). */
function stopped(ctx: TransportContext): Bucket {
  ctx.gaveUp = (ctx.gaveUp ?? 0) + 1;
  return 'failed';
}

/**
 * The backoff wait. Its timer does not keep a Node process alive (the exit flush does, up to its
 * deadline), and the exit deadline ends it (`exitWithin` wakes every wait).
 */
function pause(ctx: TransportContext, ms: number): Promise<void> {
  ctx.sleeping ??= new Set();
  const sleeping = ctx.sleeping;
  return new Promise<void>((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = () => {
      sleeping.delete(done);
      clearTimeout(timer);
      resolve();
    };
    sleeping.add(done);
    if (ctx.deps.sleep) ctx.deps.sleep(ms).then(done, done);
    else {
      timer = setTimeout(done, ms);
      (timer as { unref?: () => void }).unref?.();
    }
  });
}

/**
 * Delivery at exit ends `timeoutMs` + this much after the exit flush starts (room for one request's
 * timeout and a backoff), so that with the warning written the process is gone within
 * `timeoutMs` + 2 s.
 */
export const EXIT_GRACE_MS = 1500;

/**
 * Flushes for the process exit (Node `beforeExit`, the integrations' signal and crash handlers),
 * ending delivery within `timeoutMs` and `config.timeoutMs + EXIT_GRACE_MS`, whatever is queued
 * and whatever the network does: at that deadline every attempt, wait and queued report is given
 * up (counted `failed`), with one warning naming the address. Resolves with the flush result.
 */
export async function exitWithin<T>(
  ctx: TransportContext,
  timeoutMs: number,
  flush: () => Promise<T>,
): Promise<T> {
  const stop = new AbortController();
  ctx.stop = stop.signal;
  ctx.gaveUp = 0;
  const deadline = Math.min(timeoutMs, ctx.config.timeoutMs + EXIT_GRACE_MS);
  const timer = setTimeout(
    () => {
      stop.abort();
      // Waits that began before the exit flush: the probe's backoff, the reports waiting for it.
      for (const wake of [...(ctx.sleeping ?? [])]) wake();
      if (ctx.link) settle(ctx.link, false);
    },
    Math.max(0, deadline),
  );
  try {
    const result = await flush();
    if (ctx.gaveUp) {
      ctx.debug.warn(EXIT_GAVE_UP, ctx.gaveUp, ctx.url, ctx.lastFailure ?? 'no answer yet');
      ctx.gaveUp = 0;
      await ctx.debug.idle();
    }
    return result;
  } finally {
    clearTimeout(timer);
    if (ctx.stop === stop.signal) ctx.stop = undefined;
  }
}
