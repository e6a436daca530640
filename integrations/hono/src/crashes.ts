// Failures outside any route, once per isolate or process. workerd: the isolate's
// `unhandledrejection` event (a Worker has no process to end; the runtime logs the rejection as
// before). Bun, Deno and Node: the kit's process handlers, the ones every Svc server integration
// installs (uncaught exceptions and unhandled rejections reported, SIGTERM / SIGINT flushed, the
// runtime's own behaviour kept: printed and exit 1 where the host has no listener of its own).
import type { SvcClient } from '@svc/runtime';
import {
  carrierSlot,
  claimCrash,
  failureReport,
  installProcessHandlers,
  type ProcessLike,
  reportedByRequest,
} from '@svc/runtime/kit';
import { processEnvironment } from './environment.ts';
import type { SvcHonoOptions } from './options.ts';

interface EventScope {
  addEventListener(type: string, listener: (event: { reason?: unknown }) => void): void;
  navigator?: { userAgent?: string };
  process?: ProcessLike;
  Deno?: unknown;
}

/** Whether `scope` is a workerd isolate (Cloudflare Workers, `wrangler dev`, miniflare). */
export function isWorkerd(scope: object = globalThis): boolean {
  return (scope as EventScope).navigator?.userAgent === 'Cloudflare-Workers';
}

/** Reports the isolate's unhandled rejections; the open request's flush delivers them. */
function listenRejections(client: SvcClient, options: SvcHonoOptions, scope: EventScope): void {
  scope.addEventListener('unhandledrejection', (event) => {
    try {
      const reason = event?.reason;
      if (reportedByRequest(reason) || !claimCrash(reason)) return;
      const card = failureReport('unhandled-rejection', 'hono', reason);
      client[options.crashMethod ?? card.method](card.title, reason, card.tags);
      void client.flush().catch(() => undefined);
    } catch {
      // never throw from the isolate's event
    }
  });
}

/**
 * Deno's `process` with the variables Svc may read (its own `env` would ask for a permission the
 * app may not have); the rest is Deno's.
 */
function denoProcess(proc: ProcessLike): ProcessLike {
  return {
    pid: proc.pid,
    version: proc.version,
    execArgv: proc.execArgv,
    env: processEnvironment(),
    get exitCode() {
      return proc.exitCode;
    },
    set exitCode(code) {
      proc.exitCode = code;
    },
    on: (event, listener) => proc.on(event, listener),
    prependListener: (event, listener) =>
      (proc.prependListener ?? proc.on).call(proc, event, listener),
    removeListener: (event, listener) => proc.removeListener(event, listener),
    listeners: (event) => proc.listeners(event),
    kill: (pid, signal) => proc.kill(pid, signal),
    exit: (code) => proc.exit(code),
    stderr: proc.stderr,
    getBuiltinModule: proc.getBuiltinModule?.bind(proc),
  };
}

/** Installs the crash handlers of this runtime, once per isolate or process. */
export function installCrashHandlers(
  client: SvcClient,
  options: SvcHonoOptions,
  scope: object = globalThis,
): void {
  if (options.processHandlers === false) return;
  const done = carrierSlot('honoCrashHandlers', () => new WeakSet<object>());
  if (done.has(scope)) return;
  done.add(scope);
  try {
    const runtime = scope as EventScope;
    if (isWorkerd(scope)) {
      listenRejections(client, options, runtime);
      return;
    }
    const proc = runtime.process;
    if (typeof proc?.on !== 'function') return;
    installProcessHandlers(
      client,
      {
        framework: 'hono',
        shutdownTimeoutMs: options.shutdownTimeoutMs,
        method: options.crashMethod,
      },
      runtime.Deno ? denoProcess(proc) : proc,
    );
  } catch {
    // a runtime without what the handlers need keeps going without them
  }
}
