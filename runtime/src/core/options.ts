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
  /** The deployment setting `uploadedSourceMaps` (not an option), read beside the options. */
  uploadedSourceMaps?: boolean;
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
 * Typed, in-range values for every option (defaults and ranges generated from the spec): a value
 * of another type than its default, or a number outside its range, gives the default.
 */
export function resolveOptions(
  options: unknown,
  platformDefaults?: Partial<Record<keyof typeof OPTION_DEFAULTS, unknown>>,
): Resolved {
  const resolved: Record<string, unknown> = { ...OPTION_DEFAULTS, ...platformDefaults };
  const ranges: Record<string, readonly [number, number, boolean]> = OPTION_RANGES;
  for (const key in resolved) {
    const value = read(options, key);
    const range = ranges[key];
    if (
      typeof value === typeof resolved[key] &&
      (!range || ((value as number) >= range[0] && (value as number) <= range[1]))
    )
      resolved[key] = range?.[2] ? Math.floor(value as number) : value;
  }
  // Checked tag by tag when the tags are built (an array or a CSV string).
  resolved.defaultTags = read(options, 'defaultTags');
  for (const key of ['environment', 'release']) {
    const value = read(options, key);
    if (typeof value === 'string' && value.trim()) resolved[key] = value.trim();
  }
  const beforeSend = read(options, 'beforeSend');
  if (typeof beforeSend === 'function') resolved.beforeSend = beforeSend;
  return resolved as unknown as Resolved;
}
