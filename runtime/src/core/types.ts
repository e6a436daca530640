// Internal types shared by the core modules (not part of the public API unless re-exported).
import type { components } from '../generated/wire.gen.ts';
import type { LocationOptions } from '../location/types.ts';

/** The generated `TaskReport` of the spec (contract 2.1). */
type TaskReport = components['schemas']['TaskReport'];

/**
 * The JSON body of contract section 2.1 as this SDK sends it: the spec's `TaskReport`, with the
 * fields the SDK always sends (`priority`, `title`, `tags`) required and `tags` in array form.
 */
export type WirePayload = Omit<TaskReport, 'priority' | 'title' | 'tags'> &
  Required<Pick<TaskReport, 'priority' | 'title'>> & {
    tags: Extract<TaskReport['tags'], readonly unknown[]>;
  };

/** Where the SDK writes. `warn` is used for the few messages that show even with `debug` off. */
export interface Logger {
  debug(...args: unknown[]): void;
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
}

/**
 * Deployment settings beside the options of contract 8.5 (the second argument of `createClient`).
 */
export interface ClientSettings {
  /**
   * Address of your Svc service, e.g. `https://svc.example.com` (an absolute http or https URL;
   * a trailing slash is trimmed). A bad value disables the client with one warning.
   * @default on Node `process.env.SERVICE_URL` (read when the client is created), else the
   * generated `SERVICE_URL` (the spec's `servers[0].url`)
   */
  serviceUrl?: string;
  /**
   * This build's source maps were uploaded to the service (the build integrations'
   * `sourceMaps: 'upload'`, or `svc-sourcemaps upload`), with the release this client reports: a
   * stack frame no map resolves here is sent with its chunk's path as it is (not `[hash]`), which
   * the service maps; browsers fetch no map (there is none to fetch). Node still maps through the
   * maps it finds on disk.
   * @default false
   */
  uploadedSourceMaps?: boolean;
}

/**
 * The second argument of `createClient`: `serviceUrl` and `uploadedSourceMaps` are its public
 * fields; the rest is an internal test seam (not user options): every clock, timer, random source
 * and network call the client makes goes through these, so tests never patch globals.
 */
export interface ClientDeps extends ClientSettings {
  /** @default globalThis.fetch, looked up at call time */
  fetch?: typeof fetch;
  /** Milliseconds since the epoch. @default Date.now */
  now?: () => number;
  /** @default a setTimeout-based sleep */
  sleep?: (ms: number) => Promise<void>;
  /** A number in [0, 1). @default Math.random */
  random?: () => number;
  /** @default console */
  logger?: Logger;
}

/** Cumulative outcome counters since the previous flush result. Each report lands in one bucket. */
export interface FlushResult {
  /** Accepted by the service as a new card (201). */
  sent: number;
  /** Accepted and folded into an existing card (200 with `deduplicated: true`). */
  deduplicated: number;
  /** Given up: not retryable (4xx), or retries exhausted, or the flush/queue failed. */
  failed: number;
  dropped: {
    /** Service answered `dropped` with reason `quota`. */
    quota: number;
    /** Service answered `dropped` with reason `paused`. */
    paused: number;
    /** Service answered `dropped` with reason `archived`. */
    archived: number;
    /** The queue was full (`maxQueueSize`); the newest report was dropped. */
    overflow: number;
    /** Not picked by `sampleRate`. */
    sampled: number;
    /** `beforeSend` returned null/undefined, or threw. */
    beforeSend: number;
  };
}

/**
 * Renders a title (no `options`: synchronous text) or a description (its stack frames rewritten;
 * a promise while source maps are read). Never throws; the promise never rejects.
 */
export type Render = (
  value: unknown,
  options?: LocationOptions,
) => string | undefined | Promise<string | undefined>;
