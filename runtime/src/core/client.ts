// The core client: option resolution, the reporting pipeline and the 16 methods. Platform neutral;
// src/index.node.ts and src/index.browser.ts plug in location capture and shutdown hooks.
import { LIMITS } from '../generated/limits.gen.ts';
import { REPORTING_METHODS, type ReportingMethods } from '../generated/methods.gen.ts';
import type { Location } from '../location/types.ts';
import { pickCredentials } from './auth.ts';
import { type Bucket, count, emptyResult } from './counters.ts';
import { clamp } from './clamp.ts';
import { createDebug } from './debug.ts';
import { read, resolveOptions, type SvcOptions } from './options.ts';
import { buildPayload, sanitize } from './payload.ts';
import { createPipeline } from './pipeline.ts';
import { createQueue } from './queue.ts';
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

const noop = () => undefined;

export function createCoreClient(
  platform: Platform,
  options: SvcOptions,
  deps: ClientDeps = {},
): SvcClient {
  const d = (deps && typeof deps === 'object' ? deps : {}) as ClientDeps;
  const o = resolveOptions(options, platform.sourceMapsDefault);
  const secrets = ['apiKey', 'signingSecret']
    .map((k) => read(options, k))
    .filter((v): v is string => typeof v === 'string');
  const debug = createDebug(d.logger ?? console, o.debug, secrets);
  const random = d.random ?? Math.random;
  const result = emptyResult();
  const tally = (b: Bucket) => count(result, b);

  const creds = pickCredentials(
    read(options, 'apiKey'),
    read(options, 'keyId'),
    read(options, 'signingSecret'),
  );
  for (const w of creds.warnings) debug.warn(w);
  const pipeline = createPipeline(
    o,
    d,
    debug,
    creds.credentials,
    read(options, 'encryptionPublicKey'),
    read(options, 'encryptionKeyId'),
  );
  const active = o.enabled && pipeline.ready;
  debug.log('client created', { enabled: active, auth: creds.credentials?.kind, options });

  const setBusy =
    platform.attach?.({
      busy: () => queue.busy(),
      drain: () => queue.flush(),
      unload: () => queue.unload(),
    }) ?? noop;
  const queue = createQueue({
    maxQueueSize: o.maxQueueSize,
    concurrency: o.concurrency,
    flushIntervalMs: o.flushIntervalMs,
    prepare: pipeline.prepare,
    send: pipeline.send,
    sendKeepalive: pipeline.sendKeepalive,
    count: tally,
    busyChanged: setBusy,
    setTimer: (fn, ms) => {
      const t = setTimeout(fn, ms);
      platform.unref?.(t);
      return t;
    },
    clearTimer: (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
  });

  const baseTags = addTags(addTags([], o.defaultTags), [
    ...(o.environment ? [`env:${o.environment}`] : []),
    ...(o.release ? [`release:${o.release}`] : []),
  ]);
  const locOptions = {
    captureLocation: o.captureLocation,
    lineNumbers: o.lineNumbers,
    sourceMaps: o.sourceMaps,
  };

  /** After location: beforeSend (maybe async), validation, then the queue. */
  function finish(payload: WirePayload, loc: Location | undefined, held: boolean) {
    if (loc && typeof loc === 'object') {
      if (typeof loc.file_name === 'string' && loc.file_name)
        payload.file_name = clamp(loc.file_name, LIMITS.fileNameMax);
      if (Number.isSafeInteger(loc.line_number) && (loc.line_number as number) >= 1)
        payload.line_number = loc.line_number;
    }
    const done = (value: unknown, error?: unknown) => {
      if (error !== undefined || value == null) {
        if (error !== undefined) debug.log('beforeSend threw; report dropped:', error);
        tally('beforeSend');
      } else queue.push(value as WirePayload);
      if (held) queue.release();
    };
    if (!o.beforeSend) return done(payload);
    const original = { ...payload, tags: payload.tags.slice() };
    let r: unknown;
    try {
      r = o.beforeSend(payload);
    } catch (error) {
      return done(undefined, error ?? 'error');
    }
    const check = (v: unknown) => (v == null ? done(v) : done(sanitize(v, original)));
    if (r && typeof (r as Promise<unknown>).then === 'function') {
      if (!held) queue.hold();
      held = true;
      Promise.resolve(r).then(check, (e) => done(undefined, e ?? 'rejected'));
    } else check(r);
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
      if (o.sampleRate < 1 && random() >= o.sampleRate) return tally('sampled');
      if (!queue.hasRoom()) {
        tally('overflow');
        return debug.log(`queue full (maxQueueSize ${o.maxQueueSize}): newest report dropped`);
      }
      const payload = buildPayload(severity, priority, title, description, tags, baseTags);
      const loc = platform.captureLocation?.(description, locOptions);
      if (loc && typeof (loc as Promise<Location>).then === 'function') {
        queue.hold();
        (loc as Promise<Location>).then(
          (l) => finish(payload, l, true),
          () => finish(payload, undefined, true),
        );
      } else finish(payload, loc as Location | undefined, false);
    } catch (error) {
      debug.log('report failed:', error);
    }
  }

  const client = {
    async flush(opts?: { timeoutMs?: number }): Promise<FlushResult> {
      try {
        const t = read(opts, 'timeoutMs');
        await queue.flush(typeof t === 'number' && Number.isFinite(t) ? t : undefined);
      } catch (error) {
        debug.log('flush failed:', error);
      }
      const out = structuredClone(result);
      Object.assign(result, emptyResult());
      debug.log('flush result', out);
      return out;
    },
  } as SvcClient;
  for (const [name, m] of Object.entries(REPORTING_METHODS)) {
    (client as unknown as Record<string, unknown>)[name] = (
      title: unknown,
      description?: unknown,
      tags?: unknown,
    ) => report(m.severity, m.priority, title, description, tags);
  }
  return client;
}
