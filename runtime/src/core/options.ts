// The user options of contract section 8.5 and their resolution to safe, typed values.
import {
  OPTION_DEFAULTS,
  OPTION_RANGES,
  type SvcContractOptions,
} from '../generated/options.gen.ts';
import type { WirePayload } from './types.ts';

/**
 * Options of `createClient`, named exactly as contract section 8.5: the value options generated
 * from the spec (`SvcContractOptions`), and `beforeSend`.
 */
export interface SvcOptions extends SvcContractOptions {
  /**
   * Sees every payload after location capture. Mutate it or return a new one; return `null` or
   * `undefined` to drop the report. May return a promise. Severity and priority cannot change.
   * @default undefined
   */
  beforeSend?: (
    payload: WirePayload,
  ) => WirePayload | null | undefined | Promise<WirePayload | null | undefined>;
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

/**
 * Typed, in-range values for every option (defaults and ranges generated from the spec); invalid
 * values fall back to their defaults.
 */
export function resolveOptions(options: unknown, sourceMapsDefault: boolean): Resolved {
  const resolved: Record<string, unknown> = { defaultTags: read(options, 'defaultTags') };
  const defaults: Record<string, unknown> = { ...OPTION_DEFAULTS, sourceMaps: sourceMapsDefault };
  const ranges: Record<string, { min: number; max: number; integer: boolean }> = OPTION_RANGES;
  for (const key in defaults) {
    const value = read(options, key);
    const range = ranges[key];
    if (typeof defaults[key] === 'boolean')
      resolved[key] = typeof value === 'boolean' ? value : defaults[key];
    else if (range)
      resolved[key] =
        typeof value === 'number' && value >= range.min && value <= range.max
          ? range.integer
            ? Math.floor(value)
            : value
          : defaults[key];
  }
  for (const key of ['environment', 'release']) {
    const value = read(options, key);
    if (typeof value === 'string' && value.trim()) resolved[key] = value.trim();
  }
  const beforeSend = read(options, 'beforeSend');
  if (typeof beforeSend === 'function') resolved.beforeSend = beforeSend;
  return resolved as unknown as Resolved;
}
