// What an attempt's answer means (part of the lazy transport chunk): the bucket of a 2xx body, and
// the kind of a failure a user can fix (a message name of ./messages.ts, one warning per kind).
import type { components } from '../generated/wire.gen.ts';
import type { Bucket } from './counters.ts';
import {
  CREDENTIALS_REFUSED,
  HOST_NOT_FOUND,
  type MessageName,
  NO_SERVICE_THERE,
  UNREACHABLE,
} from './messages.ts';

/**
 * The kind of a delivery failure that a user can fix and its detail, or undefined for failures
 * that say nothing about the setup (5xx, 422, 429...).
 */
export function failureKind(
  status: number | undefined,
  cause: unknown,
  timedOut: boolean,
): [MessageName, string] | undefined {
  if (status === 401 || status === 403) return [CREDENTIALS_REFUSED, `HTTP ${status}`];
  if (status === 404 || status === 405) return [NO_SERVICE_THERE, `HTTP ${status}`];
  if (status !== undefined) return undefined;
  if (timedOut) return [UNREACHABLE, 'no answer in time'];
  // Node's fetch: TypeError('fetch failed', { cause: { code: 'ENOTFOUND' } }); browsers say less.
  let code: unknown;
  for (let link = cause, depth = 0; link && typeof link === 'object' && depth < 4; depth++) {
    code ??= (link as { code?: unknown }).code;
    link = (link as { cause?: unknown }).cause;
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return [HOST_NOT_FOUND, code];
  return [
    UNREACHABLE,
    code === 'ECONNREFUSED' ? 'connection refused' : `network error${code ? ` (${code})` : ''}`,
  ];
}

type Schemas = components['schemas'];
/** A 2xx body as the spec shapes it (created, deduplicated or dropped); any key may be missing. */
export type Answer = Partial<
  Omit<Schemas['TaskDropped'], 'dropped'> & {
    dropped: boolean;
    deduplicated:
      Schemas['TaskCreated']['deduplicated'] | Schemas['TaskDeduplicated']['deduplicated'];
  }
>;

/** A 2xx body's outcome: `dropped` (or its legacy alias) first; an absent `deduplicated` is false. */
export function outcomeOf(answer: Answer | undefined): Bucket {
  if (answer?.dropped === true || answer?.quota_exceeded === true) {
    return answer.reason === 'paused' || answer.reason === 'archived' ? answer.reason : 'quota';
  }
  return answer?.deduplicated === true ? 'deduplicated' : 'sent';
}
