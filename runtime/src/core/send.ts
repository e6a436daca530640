// What a delivery needs, and the one part of it that must not wait for the transport chunk: a
// keepalive send at browser unload. The retrying transport (./transport.ts) is a lazy chunk.
import type { Bucket } from './counters.ts';
import type { Debug } from './debug.ts';
import type { Lazy } from './lazy.ts';
import type { Link } from './link.ts';
import type { MessageName } from './messages.ts';
import type { Resolved } from './options.ts';
import type { ClientDeps } from './types.ts';

/**
 * A report ready for the wire: the exact body (sent as UTF-8), and auth headers computed at `at`
 * (ms since the epoch: when it was prepared, i.e. queued).
 */
export interface Prepared {
  body: string;
  auth: Record<string, string>;
  at: number;
}

/**
 * What the pipeline hands the transport: the resolved options and the injected deps as they are
 * (the transport chunk applies the defaults of `sleep`/`random`/`now`, so they stay out of start-up).
 */
export interface TransportContext {
  config: Resolved;
  deps: ClientDeps;
  debug: Debug;
  /** Auth headers for this exact body, computed now (a fresh timestamp when signed). */
  auth: (body: string) => Promise<Record<string, string>>;
  /** Signed auth: every retry is re-signed. */
  signed: boolean;
  /** The endpoint: the resolved service address + `/api/v1/tasks`. */
  url: string;
  /** Delivery-failure warnings already shown by this client (one per kind). */
  warned?: Set<MessageName>;
  /** Whether the service can be reached, shared by this client's deliveries (./link.ts). */
  link?: Link;
  /** Aborts of the attempts in flight: an exit flush ends them when it ends delivery. */
  attempts?: Set<() => void>;
  /** Backoff waits in progress, woken at the exit deadline. */
  sleeping?: Set<() => void>;
  /** The last delivery failure seen (its detail, for the exit warning). */
  lastFailure?: string;
  /** The exit flush under way (./exit-flush.ts), if any: every delivery gives up when it ends. */
  exit?: ExitState;
  /**
   * The time exit flushes held the host for while the service did not answer: one per process on
   * Node (the platform hands over the global carrier's), made by the first exit flush elsewhere.
   */
  budget?: ExitBudget;
  /** A browser's offline queue (a lazy chunk), for the reports the service could not be reached for. */
  offline?: Lazy<OfflineQueue>;
  /** {@link post}, handed over so the transport chunk does not import this module. */
  post: typeof post;
  /**
   * One attempt on the platform's own HTTP client (Node: `node:http` with a keep-alive agent),
   * set by the platform; without it the transport posts with `fetch` ({@link post}).
   */
  send?: Send;
}

/** What exit flushes (./exit-flush.ts) have held the host for since the service last answered. */
export interface ExitBudget {
  spentMs: number;
}

/** The exit flush under way (`TransportContext.exit`, ./exit-flush.ts). */
export interface ExitState {
  /** Aborted when delivery ends (the probe's waiters give up; attempts and waits end too). */
  stop: AbortSignal;
  /** Ends delivery now: at the deadline, or at the first report that meets no answer. */
  end(): void;
  /** Reports given up during this exit flush (the warning's count). */
  gaveUp: number;
  /** Resolves when this exit flush is over: the next one waits for it. */
  over: Promise<void>;
}

/** Reports kept while the service cannot be reached, to be sent again later (browsers). */
export interface OfflineQueue {
  /**
   * Keeps a report the service could not be reached for; `atUnload`: the page is going, so it is
   * written before this returns.
   */
  keep(prepared: Prepared, atUnload?: boolean): void;
  /** Sends the reports kept, each once (another tab may take them first). */
  resend(): void;
}

/**
 * How a report is sent at browser unload: `true` with `fetch` keepalive; `PAST_BUDGET` when the
 * 64 KiB keepalive budget is spent (kept for the next page by the offline queue when it is loaded,
 * else sent as usual); otherwise as usual.
 */
export type Keepalive = boolean | typeof PAST_BUDGET;
export const PAST_BUDGET = 0;

/** A delivery's end: its bucket, or `unreached` (no answer: refused, timed out, given up at exit). */
export type Outcome = Bucket | 'unreached';

/**
 * One attempt's outcome: the answer (status, body text, `Retry-After`), or a network failure
 * (`cause`; `timedOut` when `timeoutMs` or the exit deadline cut it short). Never rejects.
 */
export type Send = (
  ctx: TransportContext,
  auth: Record<string, string>,
  p: Prepared,
) => Promise<Reply>;

export interface Reply {
  status?: number;
  text?: string;
  retryAfter?: string | null;
  cause?: unknown;
  timedOut?: boolean;
}

/**
 * One POST of the report's bytes to the service (the transport chunk calls it through the context,
 * so the headers live only here). `deps.fetch`, else `globalThis.fetch` looked up at call time
 * (so fetch instrumentation installed after the client was created still sees it). May throw
 * synchronously.
 */
export function post(
  ctx: TransportContext,
  auth: Record<string, string>,
  body: string,
  init: RequestInit,
): Promise<Response> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    ...auth,
  };
  if (ctx.config.hideApiResponse) headers['X-Svc-Hide-Response'] = 'true';
  return (ctx.deps.fetch ?? globalThis.fetch)(ctx.url, {
    method: 'POST',
    headers,
    body,
    ...init,
  });
}

/**
 * Browser unload before the transport chunk has loaded: one keepalive POST started synchronously,
 * counted as sent on a 2xx (the page is usually gone before the answer). A synchronous throw of
 * `fetch` becomes a rejection of the pipeline's (async) send, counted as failed by the queue.
 */
export function keepaliveOnce(ctx: TransportContext, p: Prepared): Promise<Bucket> {
  return post(ctx, p.auth, p.body, { keepalive: true }).then(
    (res): Bucket => (res.ok ? 'sent' : 'failed'),
    (): Bucket => 'failed',
  );
}
