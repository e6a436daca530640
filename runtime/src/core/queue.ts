// The bounded queue and its single drain loop. `pump()` is the only place a request starts, and it
// checks the in-flight count synchronously, so timers, flushes and completions can overlap freely
// without ever exceeding `concurrency`.
import type { Bucket } from './counters.ts';
import type { Outcome, Prepared } from './transport.ts';
import type { WirePayload } from './types.ts';

interface Entry {
  payload: WirePayload;
  prepared?: Prepared;
  prep?: Promise<Prepared>;
}

export interface QueueConfig {
  maxQueueSize: number;
  concurrency: number;
  flushIntervalMs: number;
  /** Serialise, seal and sign (sync when no async step is needed). */
  prepare(payload: WirePayload): Prepared | Promise<Prepared>;
  /** Deliver with retries; never rejects. */
  send(payload: WirePayload, prepared: Prepared): Promise<Outcome>;
  /** Fire one keepalive request during unload; resolves with the outcome. */
  sendKeepalive(prepared: Prepared): Promise<Outcome>;
  count(bucket: Bucket): void;
  /** Called when the queue goes from idle to busy and back. */
  busyChanged(busy: boolean): void;
  /** Starts a timer that must not keep a process alive. */
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

/** Browsers allow at most 64 KiB of keepalive bodies in flight per page. */
export const KEEPALIVE_BUDGET = 65_536;

export function createQueue(c: QueueConfig) {
  const entries: Entry[] = [];
  let pending = 0;
  let inFlight = 0;
  let flushing = 0;
  let timer: unknown;
  let prepScheduled = false;
  let wasBusy = false;
  const idleWaiters = new Set<() => void>();

  const busy = () => pending + entries.length + inFlight > 0;
  function changed() {
    const now = busy();
    if (now !== wasBusy) {
      wasBusy = now;
      c.busyChanged(now);
    }
    if (!now) for (const w of [...idleWaiters]) w();
  }

  function start(e: Entry): void {
    if (e.prepared || e.prep) return;
    try {
      const r = c.prepare(e.payload);
      if (r instanceof Promise) e.prep = r.then((p) => (e.prepared = p));
      else e.prepared = r;
    } catch (error) {
      e.prep = Promise.reject(error);
    }
    e.prep?.catch(() => undefined);
  }

  function prepareAll() {
    prepScheduled = false;
    for (const e of entries) start(e);
  }

  async function run(e: Entry): Promise<Outcome> {
    try {
      start(e);
      const p = e.prepared ?? (await e.prep);
      return p ? await c.send(e.payload, p) : 'failed';
    } catch {
      return 'failed';
    }
  }

  /** The drain loop: start requests while slots are free. */
  function pump() {
    if (timer !== undefined) c.clearTimer(timer);
    timer = undefined;
    while (inFlight < c.concurrency && entries.length) {
      const e = entries.shift() as Entry;
      inFlight++;
      void run(e).then((outcome) => {
        inFlight--;
        c.count(outcome);
        pump();
        changed();
      });
    }
  }

  function schedule() {
    if (!prepScheduled) {
      prepScheduled = true;
      queueMicrotask(prepareAll);
    }
    if (flushing) pump();
    else if (timer === undefined && inFlight === 0) timer = c.setTimer(pump, c.flushIntervalMs);
  }

  return {
    busy,
    /** True when one more report fits (pending and queued reports count, in-flight ones do not). */
    hasRoom: () => pending + entries.length < c.maxQueueSize,
    /** Reserves a slot for a report whose location or beforeSend is still pending. */
    hold() {
      pending++;
      changed();
    },
    release() {
      pending--;
      changed();
    },
    push(payload: WirePayload) {
      entries.push({ payload });
      schedule();
      changed();
    },
    /** Sends everything now; resolves when idle or after `timeoutMs`. Never rejects. */
    flush(timeoutMs?: number): Promise<void> {
      flushing++;
      pump();
      return new Promise<void>((resolve) => {
        let t: unknown;
        const done = () => {
          idleWaiters.delete(done);
          if (t !== undefined) clearTimeout(t as ReturnType<typeof setTimeout>);
          resolve();
        };
        idleWaiters.add(done);
        if (timeoutMs !== undefined && timeoutMs >= 0) t = setTimeout(done, timeoutMs);
        if (!busy()) done();
      }).finally(() => {
        flushing--;
      });
    },
    /** Browser unload: send every prepared report that fits the keepalive budget, right now. */
    unload() {
      let budget = KEEPALIVE_BUDGET;
      for (let i = 0; i < entries.length;) {
        const e = entries[i];
        if (!e.prepared || e.prepared.bytes.length > budget) {
          i++;
          continue;
        }
        budget -= e.prepared.bytes.length;
        entries.splice(i, 1);
        inFlight++;
        void c.sendKeepalive(e.prepared).then((outcome) => {
          inFlight--;
          c.count(outcome);
          changed();
        });
      }
    },
  };
}

export type Queue = ReturnType<typeof createQueue>;
