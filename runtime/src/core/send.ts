// What a delivery needs, and the one part of it that must not wait for the transport chunk: a
// keepalive send at browser unload. The retrying transport (./transport.ts) is a lazy chunk.
import { SERVICE_URL, TASKS_PATH } from '../generated/service.gen.ts';
import type { Bucket } from './counters.ts';
import type { Debug } from './debug.ts';

/** A report ready for the wire: the exact bytes, and auth headers computed at `at` (ms). */
export interface Prepared {
  body: string;
  bytes: Uint8Array;
  auth: Record<string, string>;
  at: number;
}

export interface TransportContext {
  fetch: () => typeof fetch;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  debug: Debug;
  /** Auth headers for these exact bytes, computed now (a fresh timestamp when signed). */
  auth: (bytes: Uint8Array) => Promise<Record<string, string>>;
  /** Signed auth: every retry is re-signed. */
  signed: boolean;
  hideApiResponse: boolean;
  timeoutMs: number;
  maxRetries: number;
}

export function headersFor(ctx: TransportContext, auth: Record<string, string>) {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    ...auth,
  };
  if (ctx.hideApiResponse) headers['X-Svc-Hide-Response'] = 'true';
  return headers;
}

/**
 * Browser unload before the transport chunk has loaded: one keepalive POST started synchronously,
 * counted as sent on a 2xx (the page is usually gone before the answer). Never rejects.
 */
export function keepaliveOnce(ctx: TransportContext, p: Prepared): Promise<Bucket> {
  try {
    return ctx
      .fetch()(SERVICE_URL + TASKS_PATH, {
        method: 'POST',
        headers: headersFor(ctx, p.auth),
        body: p.body,
        keepalive: true,
      })
      .then(
        (res): Bucket => (res.ok ? 'sent' : 'failed'),
        (): Bucket => 'failed',
      );
  } catch {
    return Promise.resolve('failed');
  }
}
