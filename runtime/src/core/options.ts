// The user options of contract section 8.5 and their resolution to safe, typed values.
import type { WirePayload } from './types.ts';

/** Options of `createClient`, named exactly as contract section 8.5. */
export interface SvcOptions {
  /** Publishable token (`svc_pub_...`): bearer auth. Use in browsers. @default undefined */
  apiKey?: string;
  /** Secret key id (`svck_...`): signed auth, with `signingSecret`. Servers only. @default undefined */
  keyId?: string;
  /** Signing secret (`svc_sec_...`): used only to sign, never transmitted. @default undefined */
  signingSecret?: string;
  /** Base64 X25519 public key (32 bytes); when set every report is sealed. @default undefined */
  encryptionPublicKey?: string;
  /** `svcek_...` id echoed in the envelope as `key_id`. @default undefined */
  encryptionKeyId?: string;
  /** Master switch. @default true */
  enabled?: boolean;
  /** Added to every card as tag `env:<environment>`. @default undefined */
  environment?: string;
  /** Added to every card as tag `release:<release>`. @default undefined */
  release?: string;
  /** Merged into every card's tags. @default [] */
  defaultTags?: readonly string[];
  /** Probability (0 to 1) that a report is sent. @default 1 */
  sampleRate?: number;
  /** Send `X-Svc-Hide-Response: true` (the service withholds the card). @default true */
  hideApiResponse?: boolean;
  /** Attach `file_name` (and `line_number` when `lineNumbers`). @default true */
  captureLocation?: boolean;
  /** Also send `line_number`. @default false */
  lineNumbers?: boolean;
  /** Resolve locations through source maps. @default true in Node, false in browsers */
  sourceMaps?: boolean;
  /** Most reports held (queued, pending or in flight); newer ones are dropped. @default 100 */
  maxQueueSize?: number;
  /** Most requests in flight at any moment. @default 3 */
  concurrency?: number;
  /** Delay between a report and the background drain that sends it. @default 2000 */
  flushIntervalMs?: number;
  /** Timeout of one HTTP attempt. @default 5000 */
  timeoutMs?: number;
  /** Retries after the first attempt, on 429, 5xx, network errors and timeouts. @default 3 */
  maxRetries?: number;
  /**
   * Sees every payload after location capture. Mutate it or return a new one; return `null` or
   * `undefined` to drop the report. May return a promise. Severity and priority cannot change.
   * @default undefined
   */
  beforeSend?: (
    payload: WirePayload,
  ) => WirePayload | null | undefined | Promise<WirePayload | null | undefined>;
  /** Verbose internal logging; keys, secrets and signatures are always redacted. @default false */
  debug?: boolean;
  /** Dry run: log the readable payload at send time instead of sending. @default false */
  logLocally?: boolean;
}

export interface Resolved {
  enabled: boolean;
  environment?: string;
  release?: string;
  defaultTags: unknown;
  sampleRate: number;
  hideApiResponse: boolean;
  captureLocation: boolean;
  lineNumbers: boolean;
  sourceMaps: boolean;
  maxQueueSize: number;
  concurrency: number;
  flushIntervalMs: number;
  timeoutMs: number;
  maxRetries: number;
  beforeSend?: SvcOptions['beforeSend'];
  debug: boolean;
  logLocally: boolean;
}

/** Boolean options and their defaults. */
const BOOLS = {
  enabled: true,
  hideApiResponse: true,
  captureLocation: true,
  lineNumbers: false,
  debug: false,
  logLocally: false,
};
/** Numeric options: default, min, max. Out of range or not a finite number gives the default. */
const NUMBERS: Record<string, [number, number, number]> = {
  sampleRate: [1, 0, 1],
  maxQueueSize: [100, 1, 1e6],
  concurrency: [3, 1, 1000],
  flushIntervalMs: [2000, 0, 864e5],
  timeoutMs: [5000, 1, 864e5],
  maxRetries: [3, 0, 100],
};

/** Reads one option without ever throwing (getters and proxies may throw). */
export function read(options: unknown, key: string): unknown {
  try {
    return options && typeof options === 'object'
      ? (options as Record<string, unknown>)[key]
      : undefined;
  } catch {
    return undefined;
  }
}

/** Typed, in-range values for every option; invalid values fall back to their defaults. */
export function resolveOptions(options: unknown, sourceMapsDefault: boolean): Resolved {
  const r: Record<string, unknown> = { defaultTags: read(options, 'defaultTags') };
  for (const [k, d] of Object.entries({ ...BOOLS, sourceMaps: sourceMapsDefault })) {
    const v = read(options, k);
    r[k] = typeof v === 'boolean' ? v : d;
  }
  for (const [k, [d, min, max]] of Object.entries(NUMBERS)) {
    const v = read(options, k);
    r[k] =
      typeof v === 'number' && v >= min && v <= max ? (k === 'sampleRate' ? v : Math.floor(v)) : d;
  }
  for (const k of ['environment', 'release']) {
    const v = read(options, k);
    if (typeof v === 'string' && v.trim()) r[k] = v.trim();
  }
  const beforeSend = read(options, 'beforeSend');
  if (typeof beforeSend === 'function') r.beforeSend = beforeSend;
  return r as unknown as Resolved;
}
