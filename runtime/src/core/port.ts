// What a platform entry (Node or the browser) plugs into the core client, and the hooks a client
// hands it back. Apart from ./types.ts so the modules those types name never import back.
import type { CaptureLocation } from '../location/types.ts';
import type { Pipeline } from './pipeline.ts';
import type { FlushResult, Render } from './types.ts';

/** What a platform entry (Node or browser) plugs into the core client. */
export interface Platform {
  /** Location capture for this platform. */
  captureLocation?: CaptureLocation;
  /**
   * Renders non-string titles (no `options`) and descriptions (`core/describe.ts` with each stack
   * frame rewritten by the location code: project-relative, through source maps). Node passes it;
   * the browser passes `loadDescribe` instead (a lazy chunk loaded on the first non-string value).
   */
  describe?: Render;
  /** Loads the chunk exporting `describe` (the browser). */
  loadDescribe?: () => Promise<{ describe: Render }>;
  /**
   * Option defaults that differ on this platform (the browser's generated BROWSER_OPTION_DEFAULTS).
   * @default none: the generated OPTION_DEFAULTS
   */
  optionDefaults?: { sourceMaps?: boolean };
  /**
   * Wires a new client's shutdown hooks; returns the callback told when the client goes busy or
   * idle, if the platform wants to know (Node).
   */
  attach?(hooks: ShutdownHooks): ((busy: boolean) => void) | undefined;
  /**
   * Returns what a reporting call calls to have `run` called soon (once per batch of calls).
   * @default a microtask (`queueMicrotask`)
   */
  schedule?(run: () => void): () => void;
  /** Marks a timer as not keeping the process alive (Node `unref`). */
  unref?(timer: unknown): void;
  /** The platform's fetch, used unless one is injected. @default globalThis.fetch at call time */
  fetch?: typeof fetch;
  /** The service address from the environment (Node: `SERVICE_URL`), read at client creation. */
  envServiceUrl?(): string | undefined;
}

/** Hooks the platform uses at shutdown. */
export interface ShutdownHooks {
  /** Sends everything queued; resolves with the flush result (`flush()`). */
  drain(): Promise<FlushResult>;
  /** The client's send side: the Node exit flush sets a deadline on its transport. */
  pipeline: Pipeline;
  /** Send what is queued and prepared with `fetch` keepalive, synchronously (browser unload). */
  unload(): void;
}
