// Delivers one prepared report: one POST per attempt, retries with backoff, re-signing each retry.
import { errorFromResponse, parseRetryAfter, SvcServerError } from '../generated/errors.gen.ts';
import { SERVICE_URL, TASKS_PATH } from '../generated/service.gen.ts';
import type { Debug } from './debug.ts';
import { backoffMs, shouldRetry } from './retry.ts';

/** A report ready for the wire: the exact bytes, and auth headers computed at `signedAt`. */
export interface Prepared {
  body: string;
  bytes: Uint8Array;
  auth: Record<string, string>;
  signedAt: number;
}

export type Outcome = 'sent' | 'deduplicated' | 'failed' | 'quota' | 'paused' | 'archived';

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

/** A prepared signature older than this is renewed before the first attempt (skew window is 300 s). */
const SIGNATURE_MAX_AGE_MS = 60_000;
const ENDPOINT = SERVICE_URL + TASKS_PATH;
const DROP_REASONS = ['quota', 'paused', 'archived'] as const;

function headersOf(ctx: TransportContext, auth: Record<string, string>): Record<string, string> {
  const h: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    ...auth,
  };
  if (ctx.hideApiResponse) h['X-Svc-Hide-Response'] = 'true';
  return h;
}

/** Maps a 2xx body to an outcome: `dropped` first, an absent `deduplicated` reads as false. */
export function outcomeOf(body: unknown): Outcome {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  if (b.dropped === true || b.quota_exceeded === true) {
    const reason = DROP_REASONS.find((r) => r === b.reason);
    return reason ?? 'quota';
  }
  return b.deduplicated === true ? 'deduplicated' : 'sent';
}

/** One HTTP attempt. Never throws: network errors and timeouts come back as `error`. */
export async function attempt(
  ctx: TransportContext,
  p: Prepared,
  auth: Record<string, string>,
  keepalive = false,
): Promise<{ status?: number; body?: unknown; headers?: Headers; error?: unknown }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ctx.timeoutMs);
  try {
    const res = await ctx.fetch()(ENDPOINT, {
      method: 'POST',
      headers: headersOf(ctx, auth),
      body: p.body,
      signal: controller.signal,
      keepalive,
    });
    const text = await res.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return { status: res.status, body, headers: res.headers };
  } catch (error) {
    const timedOut = controller.signal.aborted;
    const message = timedOut ? `request timed out after ${ctx.timeoutMs} ms` : 'network error';
    return { error: new SvcServerError(message, { cause: error }) };
  } finally {
    clearTimeout(timer);
  }
}

/** Sends with retries; resolves with the outcome and never rejects. */
export async function deliver(ctx: TransportContext, p: Prepared): Promise<Outcome> {
  for (let retry = 0; ; retry++) {
    let auth = p.auth;
    if (ctx.signed && (retry > 0 || ctx.now() - p.signedAt > SIGNATURE_MAX_AGE_MS))
      auth = await ctx.auth(p.bytes);
    const r = await attempt(ctx, p, auth);
    if (r.status !== undefined && r.status >= 200 && r.status < 300) {
      const outcome = outcomeOf(r.body);
      ctx.debug.log(`delivered: ${outcome} (HTTP ${r.status})`);
      return outcome;
    }
    const error = r.error ?? errorFromResponse(r.status as number, r.body, r.headers);
    const again = shouldRetry(r.status) && retry < ctx.maxRetries;
    ctx.debug.log(`attempt ${retry + 1} failed${again ? ', will retry' : ''}:`, error);
    if (!again) return 'failed';
    await ctx.sleep(backoffMs(retry, parseRetryAfter(r.headers?.get('retry-after')), ctx.random));
  }
}
