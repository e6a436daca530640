// One upload of one map: `POST /api/v1/sourcemaps`, signed with the secret key as the SDK signs a
// report (contract 5.2, the payload's path being the route's constant path), re-signed on every
// attempt, retried on the generated rule (retried statuses and network failures, a numeric
// `Retry-After` verbatim, else the SDK's backoff).
import { signHeaders } from '../core/sign.ts';
import { backoffMs } from '../core/retry.ts';
import { isRetryable, parseRetryAfter } from '../generated/retry.gen.ts';
import { SOURCEMAPS_PATH } from '../generated/service.gen.ts';

export { SOURCEMAPS_PATH };

/** Where and how uploads are sent (the seams tests inject). */
export interface UploadTarget {
  /** The service address (an absolute http(s) URL; user:password in it become Basic auth). */
  serviceUrl: string;
  keyId: string;
  signingSecret: string;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
  /** @default Date.now */
  now?: () => number;
  /** @default a setTimeout-based sleep */
  sleep?: (ms: number) => Promise<void>;
  /** @default Math.random */
  random?: () => number;
  /** Retries after the first attempt. @default 3 */
  maxRetries?: number;
  /** Deadline of one attempt, in milliseconds (maps are large). @default 60000 */
  timeoutMs?: number;
}

/** How one upload ended. */
export type UploadOutcome =
  | { kind: 'stored'; created: boolean }
  /** No answer (refused, reset, timed out) after the retries. */
  | { kind: 'unreachable'; detail: string }
  /** An answer that is not a success: the service's message (and field errors). */
  | { kind: 'refused'; status: number; message: string };

/** The address with any `user:password@` written `***@` (for messages). */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][\w+.-]*:\/\/)[^/@?#]*@/i, '$1***@');
}

/** The endpoint without credentials, and the Basic `Authorization` header they stand for. */
function endpoint(serviceUrl: string): { url: string; headers: Record<string, string> } {
  const parsed = new URL(`${serviceUrl.replace(/\/+$/, '')}${SOURCEMAPS_PATH}`);
  const headers: Record<string, string> = {};
  if (parsed.username || parsed.password) {
    const pair = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
    parsed.username = '';
    parsed.password = '';
  }
  return { url: parsed.href, headers };
}

/** The service's JSON error as one line: its `message`, and the first field error. */
async function messageOf(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { message?: unknown; errors?: Record<string, unknown> };
    const first = Object.entries(body.errors ?? {})[0];
    const detail = first && Array.isArray(first[1]) ? ` (${first[0]}: ${first[1][0]})` : '';
    if (typeof body.message === 'string') return `${body.message}${detail}`;
  } catch {
    // not JSON: the status says it
  }
  return `HTTP ${response.status} ${response.statusText}`.trim();
}

const describeFailure = (error: unknown) => {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error as Error)?.message ?? String(error);
};

/** One attempt: the answer, or the network failure. */
async function attempt(
  target: UploadTarget,
  body: string,
): Promise<{ response: Response } | { failure: string }> {
  const { url, headers } = endpoint(target.serviceUrl);
  const signed = await signHeaders(
    target.keyId,
    target.signingSecret,
    body,
    (target.now ?? Date.now)(),
    'POST',
    SOURCEMAPS_PATH,
  );
  try {
    const response = await (target.fetch ?? fetch)(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers, ...signed },
      body,
      signal: AbortSignal.timeout(target.timeoutMs ?? 60_000),
    });
    return { response };
  } catch (error) {
    return { failure: describeFailure(error) };
  }
}

const sleeper = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Uploads one map body (`SourceMapUpload` JSON); never throws. */
export async function uploadMap(target: UploadTarget, body: string): Promise<UploadOutcome> {
  const maxRetries = target.maxRetries ?? 3;
  for (let retry = 0; ; retry++) {
    let outcome: UploadOutcome;
    let retryAfter: number | undefined;
    let status: number | undefined;
    try {
      const sent = await attempt(target, body);
      if ('failure' in sent) outcome = { kind: 'unreachable', detail: sent.failure };
      else {
        const { response } = sent;
        status = response.status;
        retryAfter = parseRetryAfter(response.headers.get('retry-after'));
        if (response.ok) {
          const answer = (await response.json().catch(() => ({}))) as { created?: unknown };
          return { kind: 'stored', created: answer.created !== false };
        }
        outcome = { kind: 'refused', status, message: await messageOf(response) };
      }
    } catch (error) {
      outcome = { kind: 'unreachable', detail: describeFailure(error) };
    }
    if (retry >= maxRetries || !isRetryable(status)) return outcome;
    await (target.sleep ?? sleeper)(backoffMs(retry, retryAfter, target.random ?? Math.random));
  }
}
