// `beforeSend` (contract 8.5): runs the host's function on a located payload, then validates and
// clamps what it returns. A lazy chunk, loaded when a client is created with `beforeSend`, so
// clients without one never download it.
import type { LIMITS } from '../generated/limits.gen.ts';
import type { clamp } from './clamp.ts';
import type { read } from './options.ts';
import type { addTags } from './tags.ts';
import type { WirePayload } from './types.ts';

/**
 * Start-up helpers, handed over by the client (as the transport gets `post`): a module this chunk
 * shared with the start-up code would land in an extra chunk that every page loads.
 */
export interface Helpers {
  clamp: typeof clamp;
  addTags: typeof addTags;
  read: typeof read;
  limits: typeof LIMITS;
}

/** The part of the queue this needs: queueing, and the report's slot. */
export interface QueueSlots {
  push(payload: WirePayload): void;
  hold(slots: -1): void;
}

/**
 * Runs `beforeSend` (maybe async) and queues what it returns, or drops the report on null,
 * undefined, a throw or a rejection; then releases the queue slot the report holds.
 */
export function applyBeforeSend(
  beforeSend: (payload: WirePayload) => unknown,
  payload: WirePayload,
  queue: QueueSlots,
  /** Counts the report as dropped by `beforeSend`; `error` when it threw or rejected. */
  drop: (error?: unknown) => void,
  helpers: Helpers,
): void {
  const original = { ...payload, tags: payload.tags.slice() };
  const done = (value: unknown, error?: unknown) => {
    if (error || value == null) drop(error);
    else queue.push(sanitize(value, original, helpers));
    queue.hold(-1);
  };
  try {
    const r = beforeSend(payload) as { then?: unknown } | null | undefined;
    if (typeof r?.then !== 'function') done(r);
    else (r as Promise<unknown>).then(done, (e) => done(undefined, e ?? 'rejected'));
  } catch (error) {
    done(undefined, error ?? 'threw');
  }
}

/**
 * Validates and clamps the result of `beforeSend` against the original payload: severity and
 * priority stay the method's, unknown keys are removed, a missing title keeps the original one.
 */
export function sanitize(
  result: unknown,
  original: WirePayload,
  { clamp, addTags, read, limits: LIMITS }: Helpers,
): WirePayload {
  const get = (k: string) => read(result, k);
  const description = get('description');
  const fileName = get('file_name');
  const line = get('line_number');
  const out: WirePayload = {
    severity: original.severity,
    priority: original.priority,
    title: '',
    tags: addTags([], get('tags')),
  };
  const text =
    typeof description === 'string' && description
      ? clamp(description, LIMITS.sdkDescriptionMax)
      : undefined;
  const title = get('title');
  out.title =
    typeof title === 'string' && title.trim() ? clamp(title, LIMITS.titleMax) : original.title;
  if (text) out.description = text;
  if (typeof fileName === 'string' && fileName) out.file_name = clamp(fileName, LIMITS.fileNameMax);
  if (
    Number.isInteger(line) &&
    (line as number) >= LIMITS.lineNumberMin &&
    (line as number) <= LIMITS.lineNumberMax
  )
    out.line_number = line as number;
  return out;
}
