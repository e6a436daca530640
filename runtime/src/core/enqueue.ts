// The last steps of a report before the queue, once its location is known: `file_name` and
// `line_number` within their limits, then `beforeSend` (a lazy chunk, maybe async) and the
// validation of its result; the report's queue slot is released once it is queued or dropped.
import { LIMITS } from '../generated/limits.gen.ts';
import type { Location } from '../location/types.ts';
import { clamp, clampTail } from './clamp.ts';
import type { Bucket } from './counters.ts';
import type { Debug } from './debug.ts';
import { lazy } from './lazy.ts';
import { BEFORE_SEND_THREW } from './messages.ts';
import { read, type Resolved } from './options.ts';
import type { Queue } from './queue.ts';
import { addTags } from './tags.ts';
import type { WirePayload } from './types.ts';

/** Queues a built report with its location (`undefined` when none was found). */
export type Enqueue = (payload: WirePayload, location: Location | undefined) => void;

/** `preload`: start loading the beforeSend chunk now (an active client that has one). */
export function createEnqueue(
  config: Resolved,
  queue: Queue,
  debug: Debug,
  tally: (bucket: Bucket) => void,
  preload: boolean,
): Enqueue {
  const scrub = lazy(() => import('./before-send.ts'));
  const beforeSend = config.beforeSend;
  if (beforeSend && preload) scrub();
  // Start-up helpers handed over: the chunk shares no module with the start-up code.
  const helpers = { clamp, addTags, read, limits: LIMITS };
  const drop = (error?: unknown) => {
    if (error) debug.log(BEFORE_SEND_THREW, error);
    tally('beforeSend');
  };
  return (payload, location) => {
    if (location?.file_name) payload.file_name = clampTail(location.file_name, LIMITS.fileNameMax);
    const line = location?.line_number;
    // A locator's line is a whole number (parsed from digits or a source map); only its bounds
    // are checked here.
    if ((line as number) >= LIMITS.lineNumberMin && (line as number) <= LIMITS.lineNumberMax)
      payload.line_number = line;
    if (!beforeSend) {
      queue.push(payload);
      return queue.hold(-1);
    }
    // A report made before the chunk has loaded keeps its slot until then.
    if (scrub.loaded)
      return scrub.loaded.applyBeforeSend(beforeSend, payload, queue, drop, helpers);
    scrub().then(
      (chunk) => chunk.applyBeforeSend(beforeSend, payload, queue, drop, helpers),
      (error) => {
        drop(error);
        queue.hold(-1);
      },
    );
  };
}
