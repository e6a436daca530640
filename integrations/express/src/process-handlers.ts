// Express's process handlers are the kit's, the same as every Svc server integration's: crashes
// reported (`critical`/`high`, tags `express` `server` `<kind>`) and flushed, SIGTERM/SIGINT
// flushed, Node's own behaviour kept (runtime/src/kit/process.ts). Here only the option names.
import type { SvcClient } from '@svc/runtime';
import { installProcessHandlers as install, type ProcessLike } from '@svc/runtime/kit';
import type { ReportingMethodName } from './options.ts';

export { rejectionMode, type ProcessLike } from '@svc/runtime/kit';

export interface ProcessHandlerOptions {
  /** @default 2000 */
  shutdownTimeoutMs?: number;
  /** @default 'criticalHigh' (the failure table's `uncaught-exception` / `unhandled-rejection` rows) */
  crashMethod?: ReportingMethodName;
}

/**
 * Reports crashes and flushes at shutdown, keeping Node's own behaviour where the host has no
 * listener of its own: a crash still prints the error and exits 1 (after flushing), and a signal
 * is re-raised after flushing. A host with its own listeners keeps full control: the process is
 * never exited for it. Once per process (any integration, any copy of the package). Returns an
 * uninstaller.
 */
export function installProcessHandlers(
  client: SvcClient,
  options: ProcessHandlerOptions = {},
  proc?: ProcessLike,
): () => void {
  const { shutdownTimeoutMs, crashMethod: method } = options;
  const off = install(client, { framework: 'express', shutdownTimeoutMs, method }, proc);
  return off ?? (() => undefined);
}
