import { inspect } from 'node:util';
import type { SvcClient } from '@svc/runtime';
import { failureReport, flushWithin } from '@svc/runtime/kit';
import type { ReportingMethodName } from './options.ts';

type Listener = (...args: any[]) => void;

/** The slice of `process` the handlers use (injected in tests). */
export interface ProcessLike {
  pid: number;
  version: string;
  execArgv: string[];
  env: Record<string, string | undefined>;
  exitCode?: number | string | null | undefined;
  on(event: string, listener: Listener): unknown;
  removeListener(event: string, listener: Listener): unknown;
  listeners(event: string): Listener[];
  kill(pid: number, signal?: string): unknown;
  exit(code?: number): unknown;
  stderr: { write(text: string): unknown };
}

export interface ProcessHandlerOptions {
  /** @default 2000 */
  shutdownTimeoutMs?: number;
  /** @default 'criticalHigh' (the failure table's `uncaught-exception` / `unhandled-rejection` rows) */
  crashMethod?: ReportingMethodName;
}

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/** `--unhandled-rejections` mode from the flags Node was started with. */
export function rejectionMode(proc: Pick<ProcessLike, 'execArgv' | 'env'>): string {
  const flags = [...proc.execArgv, ...(proc.env.NODE_OPTIONS ?? '').split(/\s+/)];
  let mode = 'throw';
  for (const flag of flags) {
    const m = /^--unhandled-rejections=([\w-]+)$/.exec(flag);
    if (m) mode = m[1]!;
  }
  return mode;
}

/**
 * Reports crashes and flushes at shutdown, keeping Node's own behaviour where the host has no
 * listener of its own: a crash still prints the error and exits 1 (after flushing), and a signal
 * is re-raised after flushing. A host with its own listeners keeps full control: the process is
 * never exited for it. Returns an uninstaller.
 */
export function installProcessHandlers(
  client: SvcClient,
  options: ProcessHandlerOptions = {},
  proc: ProcessLike = process as unknown as ProcessLike,
): () => void {
  const timeout = options.shutdownTimeoutMs ?? 2000;
  const reported = new WeakSet<object>();
  const others = (event: string, self: Listener) => proc.listeners(event).filter((l) => l !== self);

  const report = (kind: 'uncaught-exception' | 'unhandled-rejection', err: unknown) => {
    try {
      if (typeof err === 'object' && err !== null) {
        if (reported.has(err)) return;
        reported.add(err);
      }
      const card = failureReport(kind, 'express', err);
      client[options.crashMethod ?? card.method](card.title, err, card.tags);
    } catch {
      // never throw from a crash handler
    }
  };

  const crash = (err: unknown) => {
    proc.stderr.write(`${inspect(err)}\n\nNode.js ${proc.version}\n`);
    void flushWithin(client, timeout).then(() => proc.exit(1));
  };

  const onException: Listener = (err: unknown) => {
    report('uncaught-exception', err);
    if (others('uncaughtException', onException).length > 0) {
      void flushWithin(client, timeout);
      return;
    }
    crash(err);
  };

  const onRejection: Listener = (reason: unknown) => {
    report('unhandled-rejection', reason);
    if (others('unhandledRejection', onRejection).length > 0) {
      void flushWithin(client, timeout);
      return;
    }
    const mode = rejectionMode(proc);
    if (mode === 'none') return;
    if (mode.startsWith('warn')) {
      proc.stderr.write(`(node:${proc.pid}) UnhandledPromiseRejection: ${inspect(reason)}\n`);
      if (mode === 'warn-with-error-code') proc.exitCode = 1;
      return;
    }
    // 'throw' (Node's default) and 'strict': raised as an uncaught exception.
    const hostHandlers = others('uncaughtException', onException);
    if (hostHandlers.length > 0) {
      void flushWithin(client, timeout);
      for (const h of hostHandlers) h.call(proc, reason, 'unhandledRejection');
      return;
    }
    crash(reason);
  };

  const flushing = new Set<string>();
  const onSignal: Listener = (signal: string) => {
    const reraise = () => {
      if (others(signal, onSignal).length > 0) return; // the host owns shutdown
      proc.removeListener(signal, onSignal);
      proc.kill(proc.pid, signal);
    };
    if (flushing.has(signal)) return reraise(); // pressed twice: stop waiting
    flushing.add(signal);
    void flushWithin(client, timeout).then(reraise);
  };

  proc.on('uncaughtException', onException);
  proc.on('unhandledRejection', onRejection);
  for (const s of SIGNALS) proc.on(s, onSignal);
  return () => {
    proc.removeListener('uncaughtException', onException);
    proc.removeListener('unhandledRejection', onRejection);
    for (const s of SIGNALS) proc.removeListener(s, onSignal);
  };
}
