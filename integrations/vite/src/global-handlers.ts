import type { SvcClient } from '@svc/runtime';
import { failureReport, listenWindowErrors, type ReportingMethodName } from '@svc/runtime/kit';

export interface GlobalHandlerOptions {
  /**
   * Reporting method for uncaught errors and unhandled rejections.
   * @default the failure table's (`majorMedium` for `browser-error` and `browser-rejection`)
   */
  method?: ReportingMethodName;
  /** The window to listen on (tests). @default globalThis */
  target?: Pick<Window, 'addEventListener' | 'removeEventListener'>;
}

/**
 * Reports window `error` and `unhandledrejection` events as the `browser-error` and
 * `browser-rejection` failures of every integration (`TypeError: x is not a function (browser)`,
 * tags `vite`, `browser`, `browser-error`); the browser's own handling (console output) is left
 * untouched. Returns an uninstaller.
 */
export function installGlobalHandlers(
  client: SvcClient,
  options: GlobalHandlerOptions = {},
): () => void {
  const target = options.target ?? (globalThis as unknown as Window);
  return listenWindowErrors(target, (error, kind) => {
    const report = failureReport(kind, 'vite', error);
    client[options.method ?? report.method](report.title, error, report.tags);
  });
}
