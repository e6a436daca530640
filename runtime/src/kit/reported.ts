// Which errors were reported, and by which hook, once per process (the global carrier's slot):
// the same error must not make two cards when it reaches both a framework's request hook (Next's
// `onRequestError`) and the process's crash handlers (a promise rejected with it, unhandled).
// Objects only: a primitive reason cannot be recognised again.
import { carrierSlot } from '../core/shared.ts';

interface Reported {
  byRequest: WeakSet<object>;
  asCrash: WeakSet<object>;
}

function reported(): Reported {
  return carrierSlot<Reported>('reportedErrors', () => ({
    byRequest: new WeakSet(),
    asCrash: new WeakSet(),
  }));
}

const isObject = (value: unknown): value is object =>
  (typeof value === 'object' && value !== null) || typeof value === 'function';

/** Notes that a request hook reported `error`; the crash handlers then leave it. */
export function noteRequestReport(error: unknown): void {
  if (isObject(error)) reported().byRequest.add(error);
}

/** Whether a request hook reported `error`. */
export function reportedByRequest(error: unknown): boolean {
  return isObject(error) && reported().byRequest.has(error);
}

/** Notes that the crash handlers report `error`: true the first time, false after. */
export function claimCrash(error: unknown): boolean {
  if (!isObject(error)) return true;
  if (reported().asCrash.has(error)) return false;
  reported().asCrash.add(error);
  return true;
}

/** Whether the crash handlers reported `error` (a request hook then leaves it). */
export function reportedAsCrash(error: unknown): boolean {
  return isObject(error) && reported().asCrash.has(error);
}
