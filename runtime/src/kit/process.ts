// Crashes and shutdown of a Node server process, the same in every integration: an uncaught
// exception or an unhandled rejection becomes the failure table's `uncaught-exception` /
// `unhandled-rejection` card, flushed within a deadline, and the process then does exactly what
// it would have done without Svc. A host with listeners of its own (the app, or a framework that
// keeps its server running, as Next.js does) decides: Svc never exits it. A host without any gets
// Node's default: the error printed and exit code 1, the `--unhandled-rejections` mode for a
// rejection. Platform neutral: the caller hands `process` in (edge runtimes have none).
import type { SvcClient } from '../core/client.ts';
import { carrierSlot } from '../core/shared.ts';
import type { FrameworkName } from '../generated/integrations.gen.ts';
import type { ReportingMethodName } from '../generated/methods.gen.ts';
import { failureReport } from './failures.ts';
import { flushWithin } from './flush.ts';
import {
  consoleLine,
  type ProcessLike,
  rejectionAsException,
  rejectionMode,
} from './process-like.ts';
import { claimCrash, reportedByRequest } from './reported.ts';

type Listener = (...args: any[]) => void;

export interface ProcessHandlerOptions {
  /** The integration: the cards' first tag (`express`, `next`). */
  framework: FrameworkName;
  /**
   * Longest wait for queued reports after a crash that ends the process, or a signal.
   * @default 2000
   */
  shutdownTimeoutMs?: number;
  /** @default the failure table's `uncaught-exception` / `unhandled-rejection` method ('criticalHigh') */
  method?: ReportingMethodName;
  /**
   * Also flush on SIGTERM and SIGINT: the signal is re-raised after the flush when the host has no
   * listener of its own, else the host's shutdown goes on and the process is never exited.
   * @default true
   */
  signals?: boolean;
  /**
   * Where the host keeps the process running after an unhandled rejection: how long to wait for
   * the promise to be handled late (Node's `rejectionHandled`) before reporting it; a handled one
   * is not reported (a framework that awaits promises late reports the error itself).
   * @default 0 (reported at once)
   */
  rejectionGraceMs?: number;
  /** Errors that are not crashes (a framework's control flow): neither reported nor flushed. @default none */
  ignore?: (error: unknown) => boolean;
}

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/** The processes that have Svc's handlers, whichever copy of the kit installed them. */
function installed(): WeakSet<object> {
  return carrierSlot('processHandlers', () => new WeakSet<object>());
}

/**
 * Reports crashes and flushes at shutdown, keeping the process's own behaviour (see the file's
 * head). Once per process: a second call (another integration, another copy of the package)
 * installs nothing and returns `undefined`; else an uninstaller.
 */
export function installProcessHandlers(
  client: SvcClient,
  options: ProcessHandlerOptions,
  proc: ProcessLike = globalThis.process as unknown as ProcessLike,
): (() => void) | undefined {
  if (typeof proc?.on !== 'function' || installed().has(proc)) return undefined;
  installed().add(proc);
  const timeout = options.shutdownTimeoutMs ?? 2000;
  const others = (event: string, self: Listener) => proc.listeners(event).filter((l) => l !== self);
  const flush = () => flushWithin(client, timeout);

  /** Sends the card; false when there is nothing to send (ignored, or reported already). */
  const report = (kind: 'uncaught-exception' | 'unhandled-rejection', err: unknown): boolean => {
    try {
      if (options.ignore?.(err) || reportedByRequest(err) || !claimCrash(err)) return false;
      const card = failureReport(kind, options.framework, err);
      client[options.method ?? card.method](card.title, err, card.tags);
      return true;
    } catch {
      return false; // never throw from a crash handler
    }
  };

  // Node prints the first crash and exits; one that comes while Svc flushes is reported, not printed.
  let crashing = false;
  const crash = (err: unknown) => {
    if (crashing) return;
    crashing = true;
    proc.stderr.write(`${consoleLine(proc, err)}\n\nNode.js ${proc.version}\n`);
    void flush().then(() => proc.exit(1));
  };

  const onException: Listener = (err: unknown) => {
    const sent = report('uncaught-exception', err);
    if (others('uncaughtException', onException).length > 0) {
      if (sent) void flush();
      return;
    }
    crash(err);
  };

  // Rejections the host survives, waiting for a late handler (rejectionGraceMs).
  const pending = new Map<object, { timer: ReturnType<typeof setTimeout>; send: () => void }>();
  const onHandled: Listener = (promise: object) => {
    clearTimeout(pending.get(promise)?.timer);
    pending.delete(promise);
  };
  const reportSurvived = (reason: unknown, promise: unknown) => {
    const send = () => {
      if (report('unhandled-rejection', reason)) void flush();
    };
    const grace = options.rejectionGraceMs ?? 0;
    if (grace <= 0 || typeof promise !== 'object' || promise === null) return send();
    const timer = setTimeout(() => {
      pending.delete(promise);
      send();
    }, grace);
    (timer as { unref?: () => void }).unref?.(); // the wait never keeps the process alive...
    pending.set(promise, { timer, send });
  };
  // ... and a process ending on its own sends what was waiting (the report keeps it up).
  const onBeforeExit: Listener = () => {
    for (const [promise, { timer, send }] of pending) {
      clearTimeout(timer);
      pending.delete(promise);
      send();
    }
  };

  const onRejection: Listener = (reason: unknown, promise: unknown) => {
    const mode = rejectionMode(proc);
    // 'strict' raised it as an uncaught exception already (onException had it), then emits this.
    if (mode === 'strict') return;
    if (others('unhandledRejection', onRejection).length > 0)
      return reportSurvived(reason, promise);
    // 'throw' (Node's default) raises it as an uncaught exception, a non-error reason wrapped.
    const hostHandlers = mode === 'throw' ? others('uncaughtException', onException) : [];
    if (hostHandlers.length > 0) {
      reportSurvived(reason, promise);
      const raised = rejectionAsException(reason);
      for (const handler of hostHandlers) handler.call(proc, raised, 'unhandledRejection');
      return;
    }
    report('unhandled-rejection', reason);
    if (mode === 'none') return;
    if (mode === 'warn') return; // Node warns by itself, listeners or not
    if (mode === 'warn-with-error-code') {
      proc.stderr.write(
        `(node:${proc.pid}) UnhandledPromiseRejection: ${consoleLine(proc, reason)}\n`,
      );
      proc.exitCode = 1;
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
    // Decided now: a host's `once` listener is gone by the time the flush ends.
    const hostOwns = others(signal, onSignal).length > 0;
    void flush().then(() => hostOwns || reraise());
  };

  const signals = options.signals === false ? [] : SIGNALS;
  proc.on('uncaughtException', onException);
  proc.on('unhandledRejection', onRejection);
  proc.on('rejectionHandled', onHandled);
  proc.on('beforeExit', onBeforeExit);
  // First, so the host's listeners (`once` ones too) are still there when it looks.
  for (const s of signals) (proc.prependListener ?? proc.on).call(proc, s, onSignal);
  return () => {
    proc.removeListener('uncaughtException', onException);
    proc.removeListener('unhandledRejection', onRejection);
    proc.removeListener('rejectionHandled', onHandled);
    proc.removeListener('beforeExit', onBeforeExit);
    for (const s of signals) proc.removeListener(s, onSignal);
    for (const { timer } of pending.values()) clearTimeout(timer);
    installed().delete(proc);
  };
}
