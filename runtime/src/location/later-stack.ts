// Reading a captured stack off the reporting call (its own file: the browser's start-up chunk
// captures, only the lazy locator reads).

/** Reads `holder.stack` in a microtask: formatting the stack is most of the capture's cost. */
export function laterStack(holder: { stack?: string }): Promise<string | undefined> {
  return Promise.resolve().then(() => holder.stack);
}
