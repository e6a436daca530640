import type { AlertStore } from '../store/alert-types.ts';
import { StoreUnavailableError } from '../store/availability.ts';
import { type AddressPolicy, type AddressPolicySettings, addressPolicy } from './address.ts';
import { retryAt, type RetrySchedule } from './backoff.ts';
import { createAlertPlanner } from './planner.ts';
import { AlertSetupError, shownUrl } from './setup.ts';
import { type SendResult, sendAlert } from './send.ts';
import { alertHeaders } from './sign.ts';
import type { AlertPlanner, AttemptRecord, DueDelivery } from './types.ts';

/** How alerts are delivered (`ServerOptions.alerts`). */
export interface AlertOptions extends AddressPolicySettings {
  /**
   * The service's public address (`https://errors.example.com`): alerts link each card to its
   * board page there. @default undefined (no links)
   */
  publicUrl?: string;
  /** How long a receiver has to answer one attempt (lookup and connection included). @default 10000 */
  timeoutMs?: number;
  /** Attempts in flight at most, per instance. @default 8 */
  concurrency?: number;
  /** Attempts per delivery; after the last failed one it is recorded failed. @default 10 */
  maxAttempts?: number;
  /** The wait after the first failed attempt, doubled after each further one. @default 30000 */
  retryBaseMs?: number;
  /** The longest wait between two attempts. @default 3600000 */
  retryCapMs?: number;
  /** How often due alerts are looked for (frequency rules are counted every 5th time). @default 1000 */
  tickMs?: number;
}

/** What the deliverer runs with, every default resolved. */
export interface DelivererSettings {
  policy: AddressPolicy;
  planner: AlertPlanner;
  schedule: RetrySchedule;
  timeoutMs: number;
  concurrency: number;
  tickMs: number;
  now: () => number;
  random: () => number;
  log: (line: string) => void;
}

/** Notices taken per planning transaction. */
const NOTICES_PER_TURN = 200;
/** A tick plans further batches of a backlog for this long at most. */
const PLAN_BUDGET_MS = 1000;
/** A claim outlives its attempt by this much (then another instance may take the delivery). */
const CLAIM_MARGIN_MS = 60_000;

/** `publicUrl` without its trailing slash; throws `AlertSetupError` unless it is an http(s) URL. */
export function publicUrlOf(opts: AlertOptions): string | undefined {
  if (opts.publicUrl === undefined || opts.publicUrl === '') return undefined;
  if (!/^https?:\/\/[^/]/i.test(opts.publicUrl)) {
    throw new AlertSetupError('The public URL must be an http:// or https:// address.');
  }
  return opts.publicUrl.replace(/\/+$/, '');
}

export function delivererSettings(opts: AlertOptions, now: () => number): DelivererSettings {
  return {
    policy: addressPolicy(opts),
    planner: createAlertPlanner(publicUrlOf(opts)),
    schedule: {
      baseMs: opts.retryBaseMs ?? 30_000,
      capMs: opts.retryCapMs ?? 3_600_000,
      maxAttempts: opts.maxAttempts ?? 10,
    },
    timeoutMs: opts.timeoutMs ?? 10_000,
    concurrency: opts.concurrency ?? 8,
    tickMs: opts.tickMs ?? 1000,
    now,
    random: Math.random,
    log: (line) => console.error(line),
  };
}

/** What an attempt's result makes of the delivery: delivered, retried at some time, or failed. */
export function attemptRecord(
  settings: Pick<DelivererSettings, 'schedule' | 'random'>,
  delivery: Pick<DueDelivery, 'attempts'>,
  result: SendResult,
  at: number,
): AttemptRecord {
  if (result.delivered)
    return { delivered: true, status: result.status, error: null, retryAt: null, at };
  const next = result.retry
    ? retryAt(settings.schedule, delivery.attempts + 1, at, settings.random(), result.retryAfterMs)
    : null;
  return { delivered: false, status: result.status, error: result.error, retryAt: next, at };
}

/**
 * Delivers alerts: every `tickMs` a planning turn (what ingestion queued becomes deliveries,
 * frequency rules counted every 5th turn), then due deliveries are claimed, at most `concurrency`
 * in flight, each sent with its own deadline and its outcome recorded (delivered, retried later
 * with backoff, or failed after the last attempt). Everything it keeps is in the store, so a
 * restart or another instance carries on; ingestion never waits for it. Never throws.
 */
export class AlertDeliverer {
  readonly #store: AlertStore;
  readonly #s: DelivererSettings;
  readonly #inFlight = new Map<number, { abort: AbortController; done: Promise<void> }>();
  #timer: NodeJS.Timeout | undefined;
  #turn: Promise<void> | undefined;
  #filling: Promise<void> | undefined;
  #fillAgain = false;
  #turns = 0;
  #closed = false;
  #storeFailing = false;
  /** Receivers whose failure was logged, until one of their deliveries succeeds. */
  readonly #failingReceivers = new Set<string>();

  constructor(store: AlertStore, settings: DelivererSettings) {
    this.#store = store;
    this.#s = settings;
  }

  start(): this {
    this.#timer = setInterval(() => void this.tick(), this.#s.tickMs);
    this.#timer.unref();
    return this;
  }

  /** One turn now: plan, then claim and start what is due (tests, and after each attempt). */
  tick(): Promise<void> {
    this.#turn ??= this.#run().finally(() => {
      this.#turn = undefined;
    });
    return this.#turn;
  }

  /** Resolves once nothing is in flight (tests). */
  async idle(): Promise<void> {
    while (this.#turn || this.#filling || this.#inFlight.size > 0) {
      await Promise.allSettled([
        this.#turn,
        this.#filling,
        ...[...this.#inFlight.values()].map((f) => f.done),
      ]);
    }
  }

  /**
   * Stops: no new turn or attempt, attempts in flight aborted and their claims released (due again
   * at once, for this instance's next start or another instance), all within the store's deadline.
   */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    for (const flight of this.#inFlight.values()) flight.abort.abort();
    await Promise.allSettled([
      this.#turn,
      this.#filling,
      ...[...this.#inFlight.values()].map((f) => f.done),
    ]);
  }

  async #run(): Promise<void> {
    if (this.#closed) return;
    try {
      await this.#plan();
      await this.#fill();
      if (this.#storeFailing) this.#s.log('svc-server: alerts are delivered again');
      this.#storeFailing = false;
    } catch (error) {
      this.#storeFailed(error);
    }
  }

  /**
   * Plans what ingestion queued: a storm of new cards is taken a batch at a time (each one short
   * transaction, the event loop free in between) until none is left or a second has passed.
   */
  async #plan(): Promise<void> {
    const frequency = this.#turns++ % 5 === 0;
    const until = performance.now() + PLAN_BUDGET_MS;
    let turn = { raised: 0, more: true };
    for (let first = true; turn.more && (first || performance.now() < until); first = false) {
      if (!first) await new Promise((resolve) => setImmediate(resolve));
      if (this.#closed) return;
      turn = await this.#store.planAlerts(this.#s.now(), this.#s.planner, {
        notices: NOTICES_PER_TURN,
        frequency: frequency && first,
      });
    }
  }

  /** Claims due deliveries up to the concurrency and starts them; one claim at a time. */
  #fill(): Promise<void> {
    if (this.#filling) {
      this.#fillAgain = true;
      return this.#filling;
    }
    this.#filling = this.#claim().finally(() => {
      this.#filling = undefined;
      if (this.#fillAgain && !this.#closed) {
        this.#fillAgain = false;
        void this.#fill().catch((error) => this.#storeFailed(error));
      }
    });
    return this.#filling;
  }

  async #claim(): Promise<void> {
    const room = this.#s.concurrency - this.#inFlight.size;
    if (room <= 0 || this.#closed) return;
    const claimMs = this.#s.timeoutMs + CLAIM_MARGIN_MS;
    for (const delivery of await this.#store.claimDeliveries(this.#s.now(), room, claimMs)) {
      const abort = new AbortController();
      const done = this.#attempt(delivery, abort.signal).finally(() => {
        this.#inFlight.delete(delivery.id);
        if (!this.#closed) void this.#fill().catch((error) => this.#storeFailed(error));
      });
      this.#inFlight.set(delivery.id, { abort, done });
    }
  }

  async #attempt(delivery: DueDelivery, signal: AbortSignal): Promise<void> {
    const result = await sendAlert(
      { url: delivery.url, body: delivery.body, headers: alertHeaders(delivery, this.#s.now()) },
      { policy: this.#s.policy, timeoutMs: this.#s.timeoutMs, signal },
    );
    try {
      if (signal.aborted && !result.delivered) {
        await this.#store.releaseDelivery(delivery.id);
        return;
      }
      const record = attemptRecord(this.#s, delivery, result, this.#s.now());
      this.#noteReceiver(delivery, record);
      await this.#store.recordAttempt(delivery.id, record);
    } catch (error) {
      // Not recorded: the claim lapses and the delivery is tried again (at least once).
      this.#storeFailed(error);
    }
  }

  /** One line when a receiver starts failing, one when it answers again; never its URL's path. */
  #noteReceiver(delivery: DueDelivery, record: AttemptRecord): void {
    const receiver = shownUrl(delivery.url);
    if (record.delivered) {
      if (this.#failingReceivers.delete(receiver)) {
        this.#s.log(`svc-server: alerts reach ${receiver} again`);
      }
      return;
    }
    if (this.#failingReceivers.has(receiver) && record.retryAt !== null) return;
    this.#failingReceivers.add(receiver);
    const then =
      record.retryAt === null
        ? 'given up'
        : `retrying in ${Math.round((record.retryAt - record.at) / 1000)} s`;
    this.#s.log(
      `svc-server: alert #${delivery.id} to ${receiver} not delivered (${record.error}); ${then}`,
    );
  }

  #storeFailed(error: unknown): void {
    // An unreachable database is logged once per outage by the store's guard.
    if (!this.#storeFailing && !(error instanceof StoreUnavailableError)) {
      this.#s.log(`svc-server: alerts delayed: ${(error as Error).message}`);
    }
    this.#storeFailing = true;
  }
}
