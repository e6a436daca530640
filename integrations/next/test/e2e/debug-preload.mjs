// Preloaded into `next start` (node --import) by the end-to-end test: turns on @svc/next's debug
// output without changing the generated instrumentation.ts, so the test can see how each server
// report was flushed. Same global carrier as src/server/register.ts `serverState()`.
globalThis[Symbol.for('svc.next.server')] = { flushTimeoutMs: 2000, debug: true };
