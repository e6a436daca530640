// Delivers one prepared report: one POST per attempt (./attempt.ts), retries with backoff,
// reachability shared with the client's other deliveries (./link.ts), and the exit flush's end
// (./exit-flush.ts). A lazy chunk, loaded when a client prepares its first report (see ./send.ts).
import { isRetryable, parseRetryAfter } from '../generated/retry.gen.ts';
import { attempt, logFailedAttempt } from './attempt.ts';
import type { Bucket } from './counters.ts';
import { type Answer, failureKind, outcomeOf } from './failure.ts';
import { admit, createLink, failed, type Link, settle } from './link.ts';
import { LOGGED_LOCALLY, type MessageName } from './messages.ts';
import { backoffMs } from './retry.ts';
import {
  type Keepalive,
  type Outcome,
  PAST_BUDGET,
  type Prepared,
  type Reply,
  type TransportContext,
} from './send.ts';

export { exitWithin } from './exit-flush.ts';
export { failureKind, outcomeOf } from './failure.ts';

/** After an attempt: the delivery's end, or the wait (ms, 0 for none) before the next attempt. */
type Next = Outcome | number;

/**
 * {@link deliver} (with `logLocally`, the payload logged instead), a report the service could not
 * be reached for counted `failed`, and kept by the platform's offline queue when it has one
 * (browsers).
 */
export async function send(
  ctx: TransportContext,
  p: Prepared,
  keepalive?: Keepalive,
): Promise<Bucket> {
  // The dry run: the payload is shown, nothing is sent.
  if (ctx.config.logLocally) {
    ctx.debug.info(LOGGED_LOCALLY, JSON.parse(p.body));
    return 'sent';
  }
  // Unload past the keepalive budget: kept for the next page, synchronously (the page is going).
  const offline = ctx.offline;
  if (keepalive === PAST_BUDGET && offline?.loaded) {
    offline.loaded.keep(p, true);
    return 'failed';
  }
  const outcome = await deliver(ctx, p, keepalive === true);
  if (outcome !== 'unreached') return outcome;
  // At unload the chunk is there or too late: kept before the page goes.
  if (offline?.loaded) offline.loaded.keep(p, keepalive === true);
  else
    offline?.().then(
      (queue) => queue.keep(p),
      () => undefined,
    );
  return 'failed';
}

/**
 * Sends with retries and resolves with the outcome; never rejects. `keepalive` (browser unload):
 * one attempt with the prepared headers, nothing asynchronous before the request starts. While the
 * service is known unreachable, waits for the probe instead of retrying on its own; during an exit
 * flush gives up when it ends.
 */
export async function deliver(
  ctx: TransportContext,
  p: Prepared,
  keepalive = false,
): Promise<Outcome> {
  ctx.link ??= createLink();
  const link = ctx.link;
  // Unload while the page is offline or the service known down: to the offline queue, if loaded.
  if (
    keepalive &&
    ctx.offline?.loaded &&
    (link.down || (globalThis as { navigator?: Navigator }).navigator?.onLine === false)
  )
    return 'unreached';
  // Queued before the probe gave up: the service is unreachable, not retried report by report.
  if (!keepalive && p.at < (link.gaveUpAt as number)) return givenUp(ctx);
  for (let retry = 0; ; retry++) {
    if (ctx.exit?.stop.aborted) return givenUp(ctx);
    // True at once unless another report is probing (no await: one tick less per report).
    const admitted = keepalive || admit(link, p, ctx.exit?.stop);
    if (admitted !== true && !(await admitted)) return givenUp(ctx);
    const reply = await attempt(ctx, p, retry, keepalive);
    const next =
      reply.status === undefined
        ? noAnswer(ctx, link, p, retry, keepalive, reply)
        : answered(ctx, link, retry, keepalive, reply);
    if (typeof next !== 'number') return next;
    if (next > 0) await pause(ctx, next);
  }
}

/** The attempt met no answer (refused, reset, timed out): the service counts as unreachable. */
function noAnswer(
  ctx: TransportContext,
  link: Link,
  p: Prepared,
  retry: number,
  keepalive: boolean,
  reply: Reply,
): Next {
  const kind = failureKind(undefined, reply.cause, !!reply.timedOut);
  // Once an exit flush has ended delivery, the attempts it cut short do not hide why it ended.
  if (!(ctx.exit?.stop.aborted && ctx.lastFailure)) ctx.lastFailure = kind?.[1];
  if (keepalive) return 'unreached'; // the page is going: no retry
  // At exit: no retry, no backoff; every other delivery gives up with this one (no probe is left).
  if (ctx.exit) {
    link.down = true;
    ctx.exit.end();
    return givenUp(ctx);
  }
  failed(link, p);
  const again = isRetryable(undefined) && retry < ctx.config.maxRetries;
  logFailedAttempt(ctx, retry, again, reply, undefined);
  // Another report is probing: wait for it (admit) rather than retry on our own.
  if (link.probe !== p) return again ? 0 : 'unreached';
  if (again) return backoffMs(retry, undefined, ctx.deps.random ?? Math.random);
  warnOnce(ctx, kind?.[0], kind?.[1]);
  // The waiting reports fail with the probe, and so do the ones queued until now.
  link.gaveUpAt = (ctx.deps.now ?? Date.now)();
  settle(link, false);
  return 'unreached';
}

/** The service answered: reachable again; a 2xx is delivered, a retried status waits its backoff. */
function answered(
  ctx: TransportContext,
  link: Link,
  retry: number,
  keepalive: boolean,
  reply: Reply,
): Next {
  const status = reply.status as number;
  // An answer proves the service back: the exit budget is whole again.
  if (link.down && ctx.budget) ctx.budget.spentMs = 0;
  settle(link, true);
  let body: (Answer & Record<string, unknown>) | undefined;
  try {
    body = reply.text ? JSON.parse(reply.text) : undefined;
  } catch {
    // not JSON: handled as an absent body
  }
  if (status > 199 && status < 300) {
    const outcome = outcomeOf(body && typeof body === 'object' ? body : undefined);
    if (ctx.config.debug) ctx.debug.log(`delivered: ${outcome} (HTTP ${status})`);
    ctx.offline?.loaded?.resend(); // the service is there: what was kept goes too
    return outcome;
  }
  const again = !keepalive && isRetryable(status) && retry < ctx.config.maxRetries;
  logFailedAttempt(ctx, retry, again, reply, body);
  const kind = failureKind(status, undefined, false);
  ctx.lastFailure = kind?.[1] ?? `HTTP ${status}`;
  if (again)
    return backoffMs(retry, parseRetryAfter(reply.retryAfter), ctx.deps.random ?? Math.random);
  warnOnce(ctx, kind?.[0], kind?.[1]);
  return 'failed';
}

/** One visible line per client and kind of failure, with the address and the fix. */
function warnOnce(ctx: TransportContext, kind: MessageName | undefined, detail?: string): void {
  ctx.warned ??= new Set();
  if (kind === undefined || ctx.warned.has(kind)) return;
  ctx.warned.add(kind);
  ctx.debug.warn(kind, ctx.url, detail);
}

/** A report not delivered for want of an answer (counted for the exit warning during one). */
function givenUp(ctx: TransportContext): Outcome {
  if (ctx.exit) ctx.exit.gaveUp++;
  return 'unreached';
}

/**
 * The backoff wait. Its timer does not keep a Node process alive (an exit flush does, up to its
 * deadline), and the end of an exit flush ends it.
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
