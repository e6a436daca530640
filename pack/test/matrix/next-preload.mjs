// Preloaded into `next start` (node --import) by next.test.ts, without touching the app's files:
// turns on @svc/next's debug lines (how each server report was flushed; the `nextServer` slot of
// the global carrier, as integrations/next/src/server/register.ts reads it). With
// SVC_TEST_WITHOUT_CRASH_HANDLERS=1 it also marks this process as having Svc's crash handlers
// already (the kit's `processHandlers` slot), so none are installed: the control server, Next's
// own behaviour on a crash.
const key = Symbol.for('svc.carrier');
globalThis[key] ??= {};
const carrier = globalThis[key];
carrier.nextServer = { flushTimeoutMs: 2000, debug: true };
if (process.env.SVC_TEST_WITHOUT_CRASH_HANDLERS === '1')
  carrier.processHandlers = new WeakSet([process]);
