// Builds the payload of each call taken (./calls.ts): the title and description rendered (a promise
// while the describe chunk loads or stack frames' maps are read), the location awaited, then
// ./enqueue.ts.
// Until then the report holds a queue slot, so it counts against `maxQueueSize`. At unload a report
// still waiting goes at once, without what it waits for.
import type { Location } from '../location/types.ts';
import type { Debug } from './debug.ts';
import type { Enqueue } from './enqueue.ts';
import { REPORT_FAILED } from './messages.ts';
import type { Resolved } from './options.ts';
import { buildPayload } from './payload.ts';
import { lazy } from './lazy.ts';
import type { Platform } from './port.ts';
import type { Queue } from './queue.ts';
import { addTags } from './tags.ts';
import type { Render, WirePayload } from './types.ts';

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

export interface Builder {
  /** Builds one call's report (its six values, ./calls.ts). Never throws. */
  build(call: unknown[]): void;
  /** Unload: every report still waiting is queued now, without what it waits for. */
  release(): void;
}

/**
 * Non-string values are rendered by the platform's `describe` (Node), else by the lazy describe
 * chunk (browsers), loaded on the first such value.
 */
export function createBuilder(
  config: Resolved,
  platform: Platform,
  queue: Queue,
  enqueue: Enqueue,
  debug: Debug,
): Builder {
  // An unset environment or release gives `undefined`, which addTags skips.
  const baseTags = addTags(addTags([], config.defaultTags), [
    config.environment && `env:${config.environment}`,
    config.release && `release:${config.release}`,
  ]);
  /** The renderer, loaded if need be; rejects when its chunk fails to load (tried again later). */
  const renderLater = lazy(() =>
    (platform.loadDescribe as () => Promise<{ describe: Render }>)().then((c) => c.describe),
  );
  /** The renderer when it is at hand (Node: always; browsers: once its chunk has loaded). */
  const renderNow = () => platform.describe ?? renderLater.loaded;
  /** Reports whose location, description or renderer is still pending, each settled once. */
  const waiting = new Set<(ready?: unknown) => void>();
  return {
    build([severity, priority, title, description, tags, location]) {
      try {
        const render = renderNow();
        const text = plain(description)
          ? description
          : render
            ? render(description, config)
            : renderLater().then((loaded) => loaded(description, config));
        // Called with [text, location] once both are known, without arguments at unload.
        const settle = (ready?: unknown) => {
          if (!waiting.delete(settle)) return;
          try {
            const [value, found] = (ready as unknown[]) ?? [fallback(description)];
            enqueue(
              buildPayload(
                severity as WirePayload['severity'],
                priority as WirePayload['priority'],
                title,
                value as string,
                tags,
                baseTags,
                renderNow() ?? fallback,
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
        // describe chunk loading (for a non-string title too), the maps of its stack frames.
        const parts = [text, location, render || plain(title) || renderLater()];
        if (parts.some(isThenable)) Promise.all(parts).then(settle, () => settle());
        else settle(parts);
      } catch (error) {
        debug.log(REPORT_FAILED, error);
      }
    },
    release() {
      // Each settles once and leaves the set (deleting the entry being visited is safe).
      for (const settle of waiting) settle();
    },
  };
}
