// Preloaded into `next start` (node --import) by the end-to-end test: turns on @svc/next's debug
// output without changing the generated instrumentation.ts, so the test can see how each server
// report was flushed. The `nextServer` slot of the global carrier, as src/server/register.ts
// `serverState()` reads it.
globalThis[Symbol.for('svc.carrier')] = { nextServer: { flushTimeoutMs: 2000, debug: true } };
