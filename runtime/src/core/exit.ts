// The exit flush of a Node client (`ShutdownHooks.drain`), set on the client under this symbol by
// the Node platform, so that the kit's `flushWithin` reaches it from any copy of the package:
// `(timeoutMs: number) => Promise<FlushResult>`.
export const EXIT = Symbol.for('svc.exit');
