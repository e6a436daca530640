// The core client: option resolution, the reporting pipeline and the 16 methods. Platform neutral;
// src/index.node.ts and src/index.browser.ts plug in location capture and shutdown hooks.
import { LIMITS } from '../generated/limits.gen.ts';
import {
  type Priority,
  REPORTING_METHODS,
  type ReportingMethods,
  type Severity,
} from '../generated/methods.gen.ts';
import type { Location } from '../location/types.ts';
import { pickCredentials } from './auth.ts';
import { clamp, clampTail } from './clamp.ts';
import { type Bucket, count, emptyResult } from './counters.ts';
import { createDebug } from './debug.ts';
import {
  BAD_SERVICE_URL,
  BEFORE_SEND_THREW,
  CLIENT_CREATED,
  FLUSH_RESULT,
  QUEUE_FULL,
  REPORT_FAILED,
} from './messages.ts';
import { read, resolveOptions, type SvcOptions } from './options.ts';
import { buildPayload } from './payload.ts';
import { createPipeline } from './pipeline.ts';
import { createQueue } from './queue.ts';
import { resolveServiceUrl } from './service-url.ts';
import { addTags } from './tags.ts';
import type { ClientDeps, FlushResult, Platform, Render, WirePayload } from './types.ts';

/** The 16 reporting methods plus `flush()`. */
export interface SvcClient extends ReportingMethods {
  /**
   * Sends everything queued now and resolves once the queue is drained (or after `timeoutMs`),
   * with the outcome counts since the previous flush result. Never rejects.
   */
  flush(opts?: { timeoutMs?: number }): Promise<FlushResult>;
}

/** Whether a title or description renders without `describe` (strings, null, undefined). */
const plain = (value: unknown) => value == null || typeof value === 'string';
/** Used only if the describe chunk fails to load, or the page unloads before it has loaded. */
const fallback = (value: unknown) => {
  try {
    return String(value ?? '') || undefined;
  } catch {
    // a value whose toString throws: no text
  }
};

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as PromiseLike<unknown>)?.then === 'function';

export function createCoreClient(
  platform: Platform,
  options: SvcOptions,
  injected?: ClientDeps,
): SvcClient {
  const deps: ClientDeps = {
    fetch: platform.fetch,
    ...(injected as ClientDeps), // any value: null or a number adds nothing, a string index keys
  };
  const config = resolveOptions(options, platform.optionDefaults);
  // `deps` is a copy (spread above): its fields are plain data, read without a guard.
  config.uploadedSourceMaps = deps.uploadedSourceMaps;
  const option = (key: string) => read(options, key);
  // Redacted from every line (the strings among them, by the lazy formatting chunk).
  const debug = createDebug(deps.logger ?? console, config.debug, [
    option('apiKey'),
    option('signingSecret'),
  ]);
  const random = deps.random ?? Math.random;
  let result = emptyResult();
  const tally = (bucket: Bucket) => count(result, bucket);

  const credentials = pickCredentials(
    option('apiKey'),
    option('keyId'),
    option('signingSecret'),
    config.enabled ? debug.warn : () => {},
  );
  const [url, given] = resolveServiceUrl(deps.serviceUrl, platform.envServiceUrl?.());
  if (config.enabled && !url && !config.logLocally) debug.warn(BAD_SERVICE_URL, given);
  const pipeline = createPipeline(
    config,
    deps,
    debug,
    credentials,
    option('encryptionPublicKey'),
    option('encryptionKeyId'),
    url,
  );
  const active = config.enabled && pipeline.ready;
  debug.log(CLIENT_CREATED, { active, auth: credentials?.kind, serviceUrl: url, options });

  /** Reports whose location (or describe chunk) is still pending, settled once. */
  const waiting = new Set<(value?: unknown) => void>();
  /**
   * Browser unload: what the calls of this task took is built, reports still waiting for their
   * location go without it, then the queue.
   */
  const unload = () => {
    build();
    for (const settle of [...waiting]) settle();
    queue.unload();
  };
  const queue = createQueue(
    config,
    pipeline,
    tally,
    platform.attach?.({ drain: () => client.flush(), unload, pipeline }) ?? (() => {}),
    platform.unref,
  );

  // An unset environment or release gives `undefined`, which addTags skips.
  const baseTags = addTags(addTags([], config.defaultTags), [
    config.environment && `env:${config.environment}`,
    config.release && `release:${config.release}`,
  ]);
  /** Renders non-string values: the platform's, else its lazy chunk loaded on first need. */
  let render = platform.describe;
  let rendering: Promise<Render> | undefined;
  const loadRender = () =>
    (rendering ??= (platform.loadDescribe as () => Promise<{ describe: Render }>)().then(
      (chunk) => (render = chunk.describe),
      (error) => {
        rendering = undefined;
        throw error;
      },
    ));

  /** `beforeSend` and the validation of its result: a lazy chunk, loaded by clients that have one. */
  let scrub: typeof import('./before-send.ts') | undefined;
  let scrubbing: Promise<typeof import('./before-send.ts')> | undefined;
  const loadScrub = () =>
    (scrubbing ??= import('./before-send.ts').then((chunk) => (scrub = chunk)));
  if (config.beforeSend && active) loadScrub().catch(() => (scrubbing = undefined));
  const helpers = { clamp, addTags, read, limits: LIMITS };
  const drop = (error?: unknown) => {
    if (error) debug.log(BEFORE_SEND_THREW, error);
    tally('beforeSend');
  };

  /** Location known: beforeSend (maybe async), validation, then the queue; the slot is released. */
  function located(payload: WirePayload, location: Location | undefined) {
    if (location?.file_name) payload.file_name = clampTail(location.file_name, LIMITS.fileNameMax);
    const line = location?.line_number;
    // A locator's line is a whole number (parsed from digits or a source map); only its bounds
    // are checked here.
    if ((line as number) >= LIMITS.lineNumberMin && (line as number) <= LIMITS.lineNumberMax)
      payload.line_number = line;
    const beforeSend = config.beforeSend;
    if (!beforeSend) {
      queue.push(payload);
      return queue.hold(-1);
    }
    // The beforeSend chunk started loading with the client; a report made before it has loaded
    // keeps its slot until then.
    if (scrub) return scrub.applyBeforeSend(beforeSend, payload, queue, drop, helpers);
    loadScrub().then(
      (chunk) => chunk.applyBeforeSend(beforeSend, payload, queue, drop, helpers),
      (error) => {
        drop(error);
        queue.hold(-1);
      },
    );
  }

  /**
   * Reports taken by the calls and not built yet, six slots each (severity, priority, title,
   * description, tags, location), from `built` to `taken` of one array that keeps its size: a call
   * allocates nothing. Built in a microtask (`build`), or at once by `flush()` and unload.
   */
  const calls: unknown[] = [];
  let built = 0;
  let taken = 0;
  const build = () => {
    while (built < taken) {
      const at = built;
      built += 6;
      const [severity, priority, title, description, tags, location] = calls.slice(at, built);
      try {
        // A string now; a promise while the describe chunk loads or stack frames' maps are read.
        const text = plain(description)
          ? description
          : render
            ? render(description, config)
            : loadRender().then((loaded) => loaded(description, config));
        // Called with [text, location] once both are known, without arguments at unload. Until
        // then the report holds its slot, so it counts against maxQueueSize.
        const settle = (ready?: unknown) => {
          if (!waiting.delete(settle)) return;
          try {
            const [value, found] = (ready as unknown[]) ?? [fallback(description)];
            located(
              buildPayload(
                severity as WirePayload['severity'],
                priority as WirePayload['priority'],
                title,
                value as string,
                tags,
                baseTags,
                render ?? fallback,
              ),
              found as Location | undefined,
            );
          } catch (error) {
            queue.hold(-1);
            debug.log(REPORT_FAILED, error);
          }
        };
        queue.hold(1);
        waiting.add(settle);
        // Known now (strings), or later: the location's source map being read, the browser's
        // describe chunk loading (for a non-string title too), the maps of its stack frames being
        // read. An unload first sends the report at once, with String(value) for a description
        // still rendering and without a location still pending.
        const parts = [text, location, render || plain(title) || loadRender()];
        if (parts.some(isThenable)) Promise.all(parts).then(settle, () => settle());
        else settle(parts);
      } catch (error) {
        debug.log(REPORT_FAILED, error);
      }
    }
    calls.fill(undefined, 0, taken); // holds no title, description or Error once built
    built = taken = 0;
  };
  const later = platform.schedule?.(build) ?? (() => queueMicrotask(build));

  /**
   * One reporting call: the sampling decision, the queue bound and the location capture (the call
   * site's stack is the caller's); everything else waits for `build`. A Node call starts nothing
   * asynchronous in its caller's async context: `build` is scheduled by resolving a promise made
   * in the package's own (`platform.schedule`), where the capture and sampling's random draw run.
   */
  function report(
    severity: WirePayload['severity'],
    priority: WirePayload['priority'],
    title: unknown,
    description: unknown,
    tags: unknown,
  ): void {
    try {
      if (!active) return;
      if (config.sampleRate < 1 && random() >= config.sampleRate) {
        tally('sampled');
        return;
      }
      if (!queue.hasRoom(taken - built)) {
        tally('overflow');
        debug.log(QUEUE_FULL, config.maxQueueSize);
        return;
      }
      if (taken === built) later();
      // Reads captureLocation, lineNumbers and sourceMaps.
      const location = platform.captureLocation?.(description, config);
      calls[taken++] = severity;
      calls[taken++] = priority;
      calls[taken++] = title;
      calls[taken++] = description;
      calls[taken++] = tags;
      calls[taken++] = location;
    } catch (error) {
      debug.log(REPORT_FAILED, error);
    }
  }

  // An empty object first, then 17 properties: V8 keeps it in fast mode (a literal with `flush`
  // followed by 16 keyed stores turns it into a dictionary, a slower lookup on every call).
  const client = {} as SvcClient;
  // The reporting methods of the generated table: each name sets its severity and priority.
  const methods = client as unknown as Record<string, unknown>;
  for (const [severity, row] of Object.entries(REPORTING_METHODS))
    for (const [priority, names] of Object.entries(row))
      for (const name of names)
        methods[name] = (title: unknown, description?: unknown, tags?: unknown) =>
          report(severity as Severity, priority as Priority, title, description, tags);
  client.flush = async (opts?: { timeoutMs?: number }): Promise<FlushResult> => {
    build();
    const timeoutMs = read(opts, 'timeoutMs');
    await queue.flush(typeof timeoutMs === 'number' ? timeoutMs : undefined);
    const flushed = result;
    result = emptyResult();
    debug.log(FLUSH_RESULT, flushed);
    await debug.idle(); // debug and logLocally lines are written before flush() resolves
    return flushed;
  };
  return client;
}
