import type { LookupFunction } from 'node:net';
import { ALERT_DELIVERY } from '../generated/service.gen.ts';
import { type AddressPolicy, AddressPolicyError, permittedAddresses } from './address.ts';

/** One attempt's result: delivered (2XX), or why not and whether trying again may help. */
export type SendResult =
  | { delivered: true; status: number }
  | {
      delivered: false;
      status: number | null;
      error: string;
      retry: boolean;
      /** A numeric `Retry-After` of the answer, in ms. */
      retryAfterMs?: number;
    };

export interface SendRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export interface SendOptions {
  policy: AddressPolicy;
  /** The whole attempt (lookup, connection, answer) ends by then. */
  timeoutMs: number;
  /** Aborts the attempt (the service is closing). */
  signal?: AbortSignal;
}

/** True for answers worth another attempt (the spec's `x-svc-delivery`). */
export const retriedStatus = (status: number): boolean =>
  status >= ALERT_DELIVERY.retriedFrom ||
  (ALERT_DELIVERY.retriedStatuses as readonly number[]).includes(status);

const retryAfterMs = (value: string | string[] | undefined): number | undefined => {
  const text = Array.isArray(value) ? value[0] : value;
  return text !== undefined && /^\d{1,6}$/.test(text.trim())
    ? Number(text.trim()) * 1000
    : undefined;
};

/** A failure's text for the log: the code or message, never the URL. */
const reasonOf = (error: unknown): string => {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : String((error as Error).message ?? error);
};

/**
 * POSTs one alert: the host's addresses are checked against the policy and the connection goes to
 * the one checked (`lookup` pinned), with one deadline for the whole attempt; redirects are not
 * followed (a 3XX fails the delivery: it could point anywhere). The answer's body is drained and
 * ignored. Never throws.
 */
export async function sendAlert(request: SendRequest, opts: SendOptions): Promise<SendResult> {
  const url = new URL(request.url);
  const deadline = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([deadline, opts.signal]) : deadline;
  let addresses: { address: string; family: number }[];
  try {
    addresses = await permittedAddresses(url.hostname, opts.policy);
  } catch (error) {
    const refused = error instanceof AddressPolicyError;
    return {
      delivered: false,
      status: null,
      error: refused ? error.message : reasonOf(error),
      retry: !refused,
    };
  }
  const pinned: LookupFunction = (_host, options, callback) => {
    const first = addresses[0]!;
    if ((options as { all?: boolean }).all)
      (callback as (e: null, a: typeof addresses) => void)(null, addresses);
    else callback(null, first.address, first.family);
  };
  const client = url.protocol === 'https:' ? await import('node:https') : await import('node:http');
  return new Promise<SendResult>((resolve) => {
    const req = client.request(
      url,
      {
        method: 'POST',
        lookup: pinned,
        signal,
        headers: { ...request.headers, 'content-length': Buffer.byteLength(request.body) },
        agent: false,
      },
      (res) => {
        res.resume();
        res.on('error', () => {});
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) return resolve({ delivered: true, status });
        resolve({
          delivered: false,
          status,
          error:
            status >= 300 && status < 400
              ? `HTTP ${status} (redirects are not followed)`
              : `HTTP ${status}`,
          retry: retriedStatus(status),
          retryAfterMs: retryAfterMs(res.headers['retry-after']),
        });
      },
    );
    req.on('error', (error) => {
      const timedOut = deadline.aborted;
      resolve({
        delivered: false,
        status: null,
        error: timedOut ? `no answer within ${opts.timeoutMs} ms` : reasonOf(error),
        retry: true,
      });
    });
    req.end(request.body);
  });
}
