import type { DigestTiming, Store } from '../store/types.ts';

/** When the notifications of a project go out (see `ServerOptions.notifications`). */
export interface NotifierOptions extends Partial<DigestTiming> {
  now: () => number;
  /** Called after digests were queued in the outbox (the SMTP sender sends them). */
  onQueued?: () => void;
}

/**
 * Makes the notification digests: every few seconds, each project whose oldest notice has waited
 * `delayMs` and whose last digest is `intervalMs` old gets one e-mail in the outbox naming its new
 * cards and regressions. A store failure (a database restart) is logged once and retried on the
 * next tick; nothing is lost, the notices stay queued. Never throws.
 */
export function startNotifier(store: Store, opts: NotifierOptions) {
  const timing: DigestTiming = {
    delayMs: opts.delayMs ?? 60_000,
    intervalMs: opts.intervalMs ?? 300_000,
  };
  let running: Promise<void> | undefined;
  let closed = false;
  let failing = false;
  const run = async () => {
    try {
      const queued = await store.queueDigests(opts.now(), timing);
      failing = false;
      if (queued > 0) opts.onQueued?.();
    } catch (err) {
      if (!failing) console.error(`svc-server: notifications delayed: ${(err as Error).message}`);
      failing = true;
    }
  };
  const tick = (): Promise<void> => {
    if (closed) return Promise.resolve(); // the store may be closed: never touched again
    running ??= run().finally(() => {
      running = undefined;
    });
    return running;
  };
  const timer = setInterval(tick, Math.min(5000, Math.max(50, timing.delayMs / 4)));
  timer.unref();
  return {
    /** Makes the due digests now (tests, shutdown). */
    tick,
    async close() {
      closed = true;
      clearInterval(timer);
      await running;
    },
  };
}
