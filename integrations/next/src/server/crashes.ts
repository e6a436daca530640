// The Next server process's crashes (Node.js runtime): uncaught exceptions and unhandled
// rejections, through the crash handlers every Svc server integration shares (@svc/runtime/kit).
// Next's own server (`next start`, standalone, a custom server) keeps running after both: it logs
// them from listeners of its own, so the kit reports, starts a flush, and never exits the process.
import type { SvcClient } from '@svc/runtime';
import { installProcessHandlers } from '@svc/runtime/kit';
import { isControlFlowError } from '../shared/control-flow.ts';
import type { ReportingMethodName } from '../shared/types.ts';

/**
 * How long an unhandled rejection waits for a late `await` before it is reported. Next lets a
 * server component start a promise early and await it later in the render; if the await comes
 * within this time the rejection is not reported, and the render's error reaches
 * `onRequestError` as the page's server error instead (one card, not two).
 */
export const REJECTION_GRACE_MS = 1000;

/**
 * Installs the kit's crash handlers once per process. Signals are left to Next (`next start`
 * closes its server and exits on SIGTERM/SIGINT by itself), and Next's control-flow errors are
 * never crashes.
 */
export function reportCrashes(
  client: SvcClient,
  options: { method?: ReportingMethodName; timeoutMs: number },
): void {
  installProcessHandlers(client, {
    framework: 'next',
    method: options.method,
    shutdownTimeoutMs: options.timeoutMs,
    signals: false,
    rejectionGraceMs: REJECTION_GRACE_MS,
    ignore: isControlFlowError,
  });
}
