// Crashes and shutdown of a Node server process, the same in every integration: an uncaught
// exception or an unhandled rejection becomes the failure table's `uncaught-exception` /
// `unhandled-rejection` card, and the process then does exactly what it would have done without
// Svc. A host with listeners of its own (the app, or a framework that keeps its server running, as
// Next.js does) decides: Svc only starts sending, and never exits it. A host without any gets
// Node's default: the error printed, a flush within the deadline (the exit flush: the process's
// exit budget applies), exit code 1; the `--unhandled-rejections` mode for a rejection. Platform
// neutral: the caller hands `process` in (edge runtimes have none).
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

/** What the handlers of one process share. */
interface Handlers {
  client: SvcClient;
  options: ProcessHandlerOptions;
  proc: ProcessLike;
  /** Node prints the first crash and exits; one that comes while Svc flushes is only reported. */
  crashing: boolean;
}

/** The processes that have Svc's handlers, whichever copy of the kit installed them. */
function installed(): WeakSet<object> {
  return carrierSlot('processHandlers', () => new WeakSet<object>());
}

/** The host's listeners of `event` (all but `self`). */
function hostListeners(h: Handlers, event: string, self: Listener): Listener[] {
  return h.proc.listeners(event).filter((l) => l !== self);
}

/** The flush before the process ends: the client's exit flush within `shutdownTimeoutMs`. */
function flushForExit(h: Handlers): Promise<unknown> {
  return flushWithin(h.client, h.options.shutdownTimeoutMs ?? 2000);
}

/** Sends the card; false when there is nothing to send (ignored, or reported already). */
function reportCrash(
  h: Handlers,
  kind: 'uncaught-exception' | 'unhandled-rejection',
  err: unknown,
): boolean {
  try {
    if (h.options.ignore?.(err) || reportedByRequest(err) || !claimCrash(err)) return false;
    const card = failureReport(kind, h.options.framework, err);
    h.client[h.options.method ?? card.method](card.title, err, card.tags);
    return true;
  } catch {
    return false; // never throw from a crash handler
  }
}

/** Reports that the host survives are sent now, in the background: nothing waits, nothing is given up. */
function sendSoon(h: Handlers): void {
  h.client.flush().catch(() => undefined);
}

/** Node's default for a crash: the error printed, then (after the flush) exit code 1. */
function crash(h: Handlers, err: unknown): void {
  if (h.crashing) return;
  h.crashing = true;
  h.proc.stderr.write(`${consoleLine(h.proc, err)}\n\nNode.js ${h.proc.version}\n`);
  void flushForExit(h).then(() => h.proc.exit(1));
}

function exceptionListener(h: Handlers): Listener {
  const onException: Listener = (err: unknown) => {
    const sent = reportCrash(h, 'uncaught-exception', err);
    if (hostListeners(h, 'uncaughtException', onException).length === 0) return crash(h, err);
    if (sent) sendSoon(h);
  };
  return onException;
}

/**
 * Rejections: `onRejection` as Node's mode and the host's listeners say; those the host survives
 * wait `rejectionGraceMs` for a late handler (`onHandled` cancels), and a process ending on its own
 * sends what still waits (`onBeforeExit`; the report keeps it up). `clear` ends every wait.
 */
function rejectionListeners(h: Handlers, onException: Listener) {
  const pending = new Map<object, { timer: ReturnType<typeof setTimeout>; send: () => void }>();
  const survived = (reason: unknown, promise: unknown) => {
    const send = () => {
      if (reportCrash(h, 'unhandled-rejection', reason)) sendSoon(h);
    };
    const grace = h.options.rejectionGraceMs ?? 0;
    if (grace <= 0 || typeof promise !== 'object' || promise === null) return send();
    const timer = setTimeout(() => {
      pending.delete(promise);
      send();
    }, grace);
    (timer as { unref?: () => void }).unref?.(); // the wait never keeps the process alive
    pending.set(promise, { timer, send });
  };
  const onRejection: Listener = (reason: unknown, promise: unknown) => {
    const mode = rejectionMode(h.proc);
    // 'strict' raised it as an uncaught exception already (onException had it), then emits this.
    if (mode === 'strict') return;
    if (hostListeners(h, 'unhandledRejection', onRejection).length > 0)
      return survived(reason, promise);
    // 'throw' (Node's default) raises it as an uncaught exception, a non-error reason wrapped.
    const hostHandlers = mode === 'throw' ? hostListeners(h, 'uncaughtException', onException) : [];
    if (hostHandlers.length > 0) {
      survived(reason, promise);
      const raised = rejectionAsException(reason);
      for (const handler of hostHandlers) handler.call(h.proc, raised, 'unhandledRejection');
      return;
    }
    reportCrash(h, 'unhandled-rejection', reason);
    if (mode === 'none' || mode === 'warn') return; // Node warns by itself, listeners or not
    if (mode === 'warn-with-error-code') {
      h.proc.stderr.write(
        `(node:${h.proc.pid}) UnhandledPromiseRejection: ${consoleLine(h.proc, reason)}\n`,
      );
      h.proc.exitCode = 1;
      return;
    }
    crash(h, reason);
  };
  const onHandled: Listener = (promise: object) => {
    clearTimeout(pending.get(promise)?.timer);
    pending.delete(promise);
  };
  const onBeforeExit: Listener = () => {
    for (const [promise, { timer, send }] of pending) {
      clearTimeout(timer);
      pending.delete(promise);
      send();
    }
  };
  const clear = () => {
    for (const { timer } of pending.values()) clearTimeout(timer);
  };
  return { onRejection, onHandled, onBeforeExit, clear };
}

/**
 * SIGTERM / SIGINT: the exit flush, then the signal again when the host has no listener of its own
 * (the process dies of it as by default); a host's shutdown goes on, never exited by Svc. The
 * same signal twice stops waiting (Ctrl+C twice).
 */
function signalListener(h: Handlers): Listener {
  const flushing = new Set<string>();
  const onSignal: Listener = (signal: string) => {
    const reraise = () => {
      if (hostListeners(h, signal, onSignal).length > 0) return; // the host owns shutdown
      h.proc.removeListener(signal, onSignal);
      h.proc.kill(h.proc.pid, signal);
    };
    if (flushing.has(signal)) return reraise();
    flushing.add(signal);
    // Decided now: a host's `once` listener is gone by the time the flush ends.
    const hostOwns = hostListeners(h, signal, onSignal).length > 0;
    void flushForExit(h).then(() => hostOwns || reraise());
  };
  return onSignal;
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
  const h: Handlers = { client, options, proc, crashing: false };
  const onException = exceptionListener(h);
  const rejections = rejectionListeners(h, onException);
  const onSignal = signalListener(h);
  const signals = options.signals === false ? [] : SIGNALS;
  proc.on('uncaughtException', onException);
  proc.on('unhandledRejection', rejections.onRejection);
  proc.on('rejectionHandled', rejections.onHandled);
  proc.on('beforeExit', rejections.onBeforeExit);
  // First, so the host's listeners (`once` ones too) are still there when it looks.
  for (const s of signals) (proc.prependListener ?? proc.on).call(proc, s, onSignal);
  return () => {
    proc.removeListener('uncaughtException', onException);
    proc.removeListener('unhandledRejection', rejections.onRejection);
    proc.removeListener('rejectionHandled', rejections.onHandled);
    proc.removeListener('beforeExit', rejections.onBeforeExit);
    for (const s of signals) proc.removeListener(s, onSignal);
    rejections.clear();
    installed().delete(proc);
  };
}
