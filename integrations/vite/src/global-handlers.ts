import type { SvcClient } from '@svc/runtime';

type Method = Exclude<keyof SvcClient, 'flush'>;

/** Title of an uncaught value, as the console prints it: `Uncaught TypeError: x is not a function`. */
export function errorTitle(prefix: string, value: unknown): string {
  const e = value as { name?: unknown; message?: unknown } | null;
  if (e && typeof e.message === 'string') {
    const name = typeof e.name === 'string' && e.name ? e.name : 'Error';
    return `${prefix} ${name}: ${e.message.split('\n')[0]}`;
  }
  return `${prefix} ${String(value).split('\n')[0]}`;
}

export interface GlobalHandlerOptions {
  /** Reporting method for uncaught errors and unhandled rejections. @default 'critical' */
  method?: Method;
  /** The window to listen on (tests). @default globalThis */
  target?: Pick<Window, 'addEventListener' | 'removeEventListener'>;
}

/**
 * Reports window `error` and `unhandledrejection` events; the browser's own handling (console
 * output) is left untouched. Returns an uninstaller.
 */
export function installGlobalHandlers(
  client: SvcClient,
  options: GlobalHandlerOptions = {},
): () => void {
  const target = options.target ?? (globalThis as unknown as Window);
  const method = options.method ?? 'critical';
  const send = (title: string, description: unknown, tag: string) => {
    try {
      client[method](title, description, ['browser', tag]);
    } catch {
      // never throw into the page
    }
  };
  const onError = (event: ErrorEvent) => {
    const value = event.error ?? event.message;
    if (!value) return; // resource load errors and cross-origin "Script error." carry nothing
    send(errorTitle('Uncaught', value), value, 'window-error');
  };
  const onRejection = (event: PromiseRejectionEvent) => {
    send(errorTitle('Unhandled rejection:', event.reason), event.reason, 'unhandled-rejection');
  };
  target.addEventListener('error', onError as EventListener);
  target.addEventListener('unhandledrejection', onRejection as EventListener);
  return () => {
    target.removeEventListener('error', onError as EventListener);
    target.removeEventListener('unhandledrejection', onRejection as EventListener);
  };
}
