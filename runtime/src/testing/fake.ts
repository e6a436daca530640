// A client for users' own tests: the 16 methods and flush() of SvcClient, recording every report as
// the real client would build it (title, description, tags with defaultTags/env/release, clamps,
// beforeSend) and sending nothing. Built from the core's own payload, option, tag and beforeSend
// code, so it cannot drift from what a real client sends; location capture and source maps are
// left out (they are asynchronous and platform-specific): stack frames are written as the real
// client writes frames without a map (./frames.ts).
import { LIMITS } from '../generated/limits.gen.ts';
import {
  type Priority,
  REPORTING_METHODS,
  type ReportingMethodName,
  type Severity,
} from '../generated/methods.gen.ts';
import { sanitize } from '../core/before-send.ts';
import { clamp } from '../core/clamp.ts';
import type { SvcClient } from '../core/client.ts';
import { emptyResult } from '../core/counters.ts';
import { describe } from '../core/describe.ts';
import { read, resolveOptions, type SvcOptions } from '../core/options.ts';
import { buildPayload } from '../core/payload.ts';
import { addTags } from '../core/tags.ts';
import type { FlushResult, WirePayload } from '../core/types.ts';
import { type Assertions, assertions } from './assertions.ts';
import { describeFake } from './frames.ts';
import type { FakeReport } from './report.ts';

/** A client for tests: `SvcClient` plus what it recorded and assertions that throw on a mismatch. */
export interface FakeClient extends SvcClient, Assertions {
  /** Every report, oldest first. */
  readonly reports: readonly FakeReport[];
  /** The reports made since the last `flush()` (what would still wait in the queue). */
  pending(): FakeReport[];
  /** Forgets every report and flush. */
  reset(): void;
}

/**
 * Creates a fake client. Of the options, `environment`, `release`, `defaultTags` and `beforeSend`
 * apply as in production; credentials, the service address, `enabled` and `sampleRate` are
 * ignored (a fake sees every report). `flush()` waits for pending `beforeSend` promises and counts
 * the reports since the previous flush as sent.
 */
export function createFakeClient(options: SvcOptions = {}): FakeClient {
  const config = resolveOptions(options);
  const baseTags = addTags(addTags([], config.defaultTags), [
    config.environment && `env:${config.environment}`,
    config.release && `release:${config.release}`,
  ]);
  const reports: FakeReport[] = [];
  const waiting = new Set<Promise<void>>();
  let result = emptyResult();
  let flushed = 0;
  let flushes = 0;

  const keep = (method: ReportingMethodName, payload: WirePayload, error: unknown) => {
    const { severity, priority, title, description, tags } = payload;
    reports.push({
      method,
      severity,
      priority,
      title,
      description: description ?? undefined,
      tags,
      payload,
      error,
    });
  };
  const helpers = { clamp, addTags, read, limits: LIMITS };

  function record(
    method: ReportingMethodName,
    severity: Severity,
    priority: Priority,
    args: unknown[],
  ) {
    try {
      const [title, description, tags] = args;
      // The text as the client renders it, stack frames as the client writes them without maps.
      const text = typeof description === 'string' ? description : describeFake(description);
      const payload = buildPayload(severity, priority, title, text, tags, baseTags, (value) =>
        describe(value),
      );
      const error = typeof description === 'string' ? undefined : description;
      const beforeSend = config.beforeSend;
      if (!beforeSend) return keep(method, payload, error);
      const original = { ...payload, tags: payload.tags.slice() };
      const done = (value: unknown) => {
        if (value == null) result.dropped.beforeSend++;
        else keep(method, sanitize(value, original, helpers), error);
      };
      const dropped = () => done(undefined);
      const out = beforeSend(payload) as unknown;
      if (typeof (out as PromiseLike<unknown>)?.then !== 'function') return done(out);
      const settled = Promise.resolve(out).then(done, dropped);
      waiting.add(settled);
      settled.finally(() => waiting.delete(settled));
    } catch {
      result.dropped.beforeSend++;
    }
  }

  const methods = {} as Record<ReportingMethodName, (...args: unknown[]) => void>;
  for (const [severity, byPriority] of Object.entries(REPORTING_METHODS))
    for (const [priority, names] of Object.entries(byPriority))
      for (const name of names as readonly ReportingMethodName[])
        methods[name] = (...args: unknown[]) =>
          record(name, severity as Severity, priority as Priority, args);

  const fake = {
    ...methods,
    get reports() {
      return reports;
    },
    pending: () => reports.slice(flushed),
    async flush(): Promise<FlushResult> {
      while (waiting.size) await Promise.all([...waiting]);
      flushes++;
      result.sent += reports.length - flushed;
      flushed = reports.length;
      const out = result;
      result = emptyResult();
      return out;
    },
    reset() {
      reports.length = 0;
      flushed = 0;
      flushes = 0;
      result = emptyResult();
    },
  };
  return Object.assign(
    fake,
    assertions(
      () => reports,
      () => ({ flushes, pending: reports.length - flushed }),
    ),
  ) as FakeClient;
}
