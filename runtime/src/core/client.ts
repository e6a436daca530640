// The core client: option resolution, the reporting pipeline and the 16 methods. Platform neutral;
// src/index.node.ts and src/index.browser.ts plug in location capture and shutdown hooks.
import { LIMITS } from '../generated/limits.gen.ts';
import {
  DEFAULT_PRIORITY,
  PRIORITIES,
  type ReportingMethods,
  SEVERITIES,
} from '../generated/methods.gen.ts';
import type { Location } from '../location/types.ts';
import { pickCredentials } from './auth.ts';
import { clamp } from './clamp.ts';
import { type Bucket, count, emptyResult } from './counters.ts';
import { createDebug } from './debug.ts';
import { read, resolveOptions, type SvcOptions } from './options.ts';
import { buildPayload, type Render } from './payload.ts';
import { createPipeline } from './pipeline.ts';
import { createQueue } from './queue.ts';
import { resolveServiceUrl } from './service-url.ts';
import { addTags } from './tags.ts';
import type { ClientDeps, FlushResult, Platform, WirePayload } from './types.ts';

/** The 16 reporting methods plus `flush()`. */
export interface SvcClient extends ReportingMethods {
  /**
   * Sends everything queued now and resolves once the queue is drained (or after `timeoutMs`),
   * with the outcome counts since the previous flush result. Never rejects.
   */
  flush(opts?: { timeoutMs?: number }): Promise<FlushResult>;
}

/** Whether a title or description renders without `describe` (strings, null, undefined). */
const plain = (v: unknown) => v == null || typeof v === 'string';
/** Used only if the describe chunk fails to load, or the page unloads before it has loaded. */
const fallback: Render = (v) => {
  try {
    return v == null ? undefined : String(v);
  } catch {
    return undefined;
  }
};

const isThenable = (v: unknown): v is PromiseLike<unknown> =>
  typeof (v as PromiseLike<unknown>)?.then === 'function';

export function createCoreClient(
  platform: Platform,
  options: SvcOptions,
  deps?: ClientDeps,
): SvcClient {
  const d: ClientDeps = {
    fetch: platform.fetch,
    ...(deps && typeof deps === 'object' ? deps : {}),
  };
  const o = resolveOptions(options, platform.sourceMapsDefault);
  const opt = (k: string) => read(options, k);
  const secrets = [opt('apiKey'), opt('signingSecret')].filter(
    (v): v is string => typeof v === 'string' && !!v,
  );
  const debug = createDebug(d.logger ?? console, o.debug, secrets);
  const random = d.random ?? Math.random;
  let result = emptyResult();
  const tally = (b: Bucket) => count(result, b);

  const { credentials, warnings } = pickCredentials(
    opt('apiKey'),
    opt('keyId'),
    opt('signingSecret'),
  );
  if (o.enabled) for (const w of warnings) debug.warn(w);
  const [url, given] = resolveServiceUrl(read(d, 'serviceUrl'), platform.envServiceUrl?.());
  if (o.enabled && !url && !o.logLocally) debug.warn(12, given); // bad service address
  const pipeline = createPipeline(
    o,
    d,
    debug,
    credentials,
    opt('encryptionPublicKey'),
    opt('encryptionKeyId'),
    url,
  );
  const active = o.enabled && pipeline.ready;
  debug.log(7, { active, auth: credentials?.kind, serviceUrl: url, options });

  const queue = createQueue(o, pipeline, tally, (busy) => setBusy(busy), platform.unref);
  /** Reports whose location is still pending. */
  const waiting = new Set<(l?: unknown) => void>();
  /** Browser unload: reports still waiting for their location go without it, then the queue. */
  const unload = () => {
    for (const settle of [...waiting]) settle();
    queue.unload();
  };
  const setBusy =
    platform.attach?.({ busy: queue.busy, drain: () => queue.flush(), unload }) ?? (() => {});

  const env = o.environment ? [`env:${o.environment}`] : [];
  const baseTags = addTags(
    addTags(addTags([], o.defaultTags), env),
    o.release ? [`release:${o.release}`] : [],
  );
  /** Renders non-string values: the platform's, else a lazy chunk loaded on first need. */
  let render = platform.describe;
  let rendering: Promise<Render> | undefined;
  const loadRender = () =>
    (rendering ??= import('./describe.ts').then(
      (m) => (render = m.describe),
      (e) => {
        rendering = undefined;
        throw e;
      },
    ));

  /** `beforeSend` and the validation of its result: a lazy chunk, loaded by clients that have one. */
  let scrub: typeof import('./before-send.ts') | undefined;
  let scrubbing: Promise<typeof import('./before-send.ts')> | undefined;
  const loadScrub = () => (scrubbing ??= import('./before-send.ts').then((m) => (scrub = m)));
  if (o.beforeSend && active) loadScrub().catch(() => (scrubbing = undefined));
  const helpers = { clamp, addTags, read, limits: LIMITS };
  const drop = (error?: unknown) => {
    if (error) debug.log(8, error); // beforeSend threw; report dropped
    tally('beforeSend');
  };

  /** Location known: beforeSend (maybe async), validation, then the queue. */
  function located(payload: WirePayload, loc: Location | undefined, held: boolean) {
    if (typeof loc?.file_name === 'string' && loc.file_name)
      payload.file_name = clamp(loc.file_name, LIMITS.fileNameMax);
    const line = loc?.line_number;
    if (Number.isInteger(line) && line! > 0 && line! <= LIMITS.lineNumberMax)
      payload.line_number = line;
    if (!o.beforeSend) {
      queue.push(payload);
      if (held) queue.release();
      return;
    }
    // The beforeSend chunk started loading with the client; a report made before it has loaded
    // holds its slot until then.
    if (scrub) return scrub.applyBeforeSend(o.beforeSend, payload, held, queue, drop, helpers);
    if (!held) queue.hold();
    loadScrub().then(
      (m) => m.applyBeforeSend(o.beforeSend as never, payload, true, queue, drop, helpers),
      (error) => {
        drop(error);
        queue.release();
      },
    );
  }

  function report(
    severity: WirePayload['severity'],
    priority: WirePayload['priority'],
    title: unknown,
    description: unknown,
    tags: unknown,
  ): void {
    try {
      if (!active) return;
      if (o.sampleRate < 1 && random() >= o.sampleRate) tally('sampled');
      else if (!queue.hasRoom()) {
        tally('overflow');
        debug.log(9, o.maxQueueSize); // queue full: newest report dropped
      } else {
        const loc = platform.captureLocation?.(description, o); // reads captureLocation, lineNumbers, sourceMaps
        /** Payload known: the location now, or once it resolves (held, settled once). */
        const go = (r: Render, l: unknown, held: boolean) => {
          const payload = buildPayload(severity, priority, title, description, tags, baseTags, r);
          if (!isThenable(l)) return located(payload, l as Location | undefined, held);
          if (!held) queue.hold();
          // Settles once: with the location, or without it when the page unloads first.
          const settle = (x?: unknown) => {
            if (waiting.delete(settle)) located(payload, x as Location | undefined, true);
          };
          waiting.add(settle);
          l.then(settle, () => settle());
        };
        if (render || (plain(title) && plain(description))) go(render ?? fallback, loc, false);
        else {
          // The first non-string value of a browser page waits for the describe chunk (held, so
          // it counts against maxQueueSize); an unload first sends it with String(value).
          queue.hold();
          const settle = (r?: unknown) => {
            if (waiting.delete(settle))
              try {
                go((r as Render) ?? fallback, r || !isThenable(loc) ? loc : undefined, true);
              } catch (error) {
                queue.release();
                debug.log(10, error); // report failed
              }
          };
          waiting.add(settle);
          loadRender().then(settle, () => settle(fallback));
        }
      }
    } catch (error) {
      debug.log(10, error); // report failed
    }
  }

  const client = {
    async flush(opts?: { timeoutMs?: number }): Promise<FlushResult> {
      const t = read(opts, 'timeoutMs');
      await queue.flush(typeof t === 'number' ? t : undefined);
      const out = result;
      result = emptyResult();
      debug.log(11, out); // flush result
      await debug.idle(); // debug and logLocally lines are written before flush() resolves
      return out;
    },
  } as SvcClient;
  // The 16 methods from the generated severity x priority table: `majorHigh`, and `major` for the
  // default priority (test/core/client.test.ts checks the names against REPORTING_METHODS).
  const methods = client as unknown as Record<string, unknown>;
  for (const severity of SEVERITIES)
    for (const priority of PRIORITIES) {
      const fn = (title: unknown, description?: unknown, tags?: unknown) =>
        report(severity, priority, title, description, tags);
      methods[severity + priority[0].toUpperCase() + priority.slice(1)] = fn;
      if (priority === DEFAULT_PRIORITY) methods[severity] = fn;
    }
  return client;
}
