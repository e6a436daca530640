// The reporting calls. A call does what cannot wait (the sampling decision, the queue bound, the
// location capture: the call site's stack is the caller's) and writes its six values (severity,
// priority, title, description, tags, location) into reused slots of one array that keeps its
// size, so it allocates nothing; the first call of a batch schedules the build (./build.ts), a
// microtask later, or at once in `flush()` and at unload. A Node call starts nothing asynchronous
// in its caller's async context: the build is scheduled by resolving a promise made in the
// package's own (`Platform.schedule`), where the capture and sampling's random draw run.
import type { Bucket } from './counters.ts';
import type { Debug } from './debug.ts';
import { QUEUE_FULL, REPORT_FAILED } from './messages.ts';
import type { Resolved } from './options.ts';
import type { Platform } from './port.ts';
import type { Queue } from './queue.ts';
import type { WirePayload } from './types.ts';

export interface Calls {
  /** One reporting call. Never throws. */
  report(
    severity: WirePayload['severity'],
    priority: WirePayload['priority'],
    title: unknown,
    description: unknown,
    tags: unknown,
  ): void;
  /** Hands every call taken to `build` (its six values), in order, then holds nothing. */
  drain(build: (call: unknown[]) => void): void;
}

/** `later` schedules a build of the calls taken (once a batch). */
export function createCalls(
  config: Resolved,
  platform: Platform,
  queue: Queue,
  tally: (bucket: Bucket) => void,
  debug: Debug,
  random: () => number,
  later: () => void,
): Calls {
  const slots: unknown[] = [];
  let built = 0;
  let taken = 0;
  return {
    report(severity, priority, title, description, tags) {
      try {
        if (config.sampleRate < 1 && random() >= config.sampleRate) return tally('sampled');
        // Calls not built yet count against the bound (six slots a report).
        if (!queue.hasRoom((taken - built) / 6)) {
          tally('overflow');
          return debug.log(QUEUE_FULL, config.maxQueueSize);
        }
        if (taken === built) later();
        // Reads captureLocation, lineNumbers and sourceMaps.
        const location = platform.captureLocation?.(description, config);
        slots[taken++] = severity;
        slots[taken++] = priority;
        slots[taken++] = title;
        slots[taken++] = description;
        slots[taken++] = tags;
        slots[taken++] = location;
      } catch (error) {
        debug.log(REPORT_FAILED, error);
      }
    },
    drain(build) {
      // A call made while building (a beforeSend reporting, say) is built in the same pass.
      while (built < taken) {
        const at = built;
        built += 6;
        build(slots.slice(at, built));
      }
      slots.fill(undefined, 0, taken); // no title, description or Error held once built
      built = taken = 0;
    },
  };
}
