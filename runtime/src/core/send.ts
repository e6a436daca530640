// What a delivery needs, and the one part of it that must not wait for the transport chunk: a
// keepalive send at browser unload. The retrying transport (./transport.ts) is a lazy chunk.
import type { Bucket } from './counters.ts';
import type { Debug } from './debug.ts';
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
  /** Aborted at the exit deadline: every delivery gives up at once (`exitWithin`). */
  stop?: AbortSignal;
  /** Backoff waits in progress, woken at the exit deadline. */
  sleeping?: Set<() => void>;
  /** Reports given up at the exit deadline, and the last failure seen: the exit warning. */
  gaveUp?: number;
  lastFailure?: string;
  /** {@link post}, handed over so the transport chunk does not import this module. */
  post: typeof post;
  /**
   * One attempt on the platform's own HTTP client (Node: `node:http` with a keep-alive agent),
   * set by the platform; without it the transport posts with `fetch` ({@link post}).
   */
  send?: Send;
}

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
