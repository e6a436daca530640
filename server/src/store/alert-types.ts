// The alerts' storage seam: webhooks, rules, the planning turn that turns what ingestion queued
// into deliveries, claims of due deliveries, their attempts, and the delivery log. Ingestion
// itself writes the queue and the counts inside its own transaction (each engine's ingest).
import type {
  AlertPlanner,
  AlertRule,
  AttemptRecord,
  DeliveryLogRow,
  DueDelivery,
  NewAlertRule,
  NewWebhook,
  Webhook,
} from '../alerts/types.ts';
import type { MaybePromise } from './types.ts';

/** What one planning turn reads and does. */
export interface PlanOptions {
  /** Queued notices taken at most (the rest wait for the next turn). */
  notices: number;
  /** Also count reports for the frequency rules this turn. */
  frequency: boolean;
}

/** What a planning turn did: deliveries raised, and whether notices are left for another turn. */
export interface PlanResult {
  raised: number;
  /** It took as many notices as it could: more may be queued. */
  more: boolean;
}

export interface AlertStore {
  addWebhook(input: NewWebhook): MaybePromise<Webhook>;
  /** The project's live webhooks, oldest first. */
  listWebhooks(projectId: number): MaybePromise<Webhook[]>;
  /**
   * Removes a webhook, its rules, and cancels their pending deliveries; false when there was no
   * live webhook with this id.
   */
  removeWebhook(id: number): MaybePromise<boolean>;
  /** Adds a rule; undefined when its webhook is not a live webhook of the same project. */
  addRule(input: NewAlertRule): MaybePromise<AlertRule | undefined>;
  /** The project's live rules, oldest first. */
  listRules(projectId: number): MaybePromise<AlertRule[]>;
  /** Removes a rule and cancels its pending deliveries; false when there was no live rule. */
  removeRule(id: number): MaybePromise<boolean>;
  /**
   * One planning turn, in one transaction: takes queued notices (each taken by one instance),
   * counts reports for frequency rules, asks the planner which rules fire, and for each firing
   * whose rule has not alerted for the card within its window (checked and moved atomically, so
   * instances never both pass), inserts a delivery with the planner's body.
   */
  planAlerts(now: number, planner: AlertPlanner, opts: PlanOptions): MaybePromise<PlanResult>;
  /**
   * Claims up to `limit` pending deliveries due by `now` for `claimMs` (no other instance takes
   * them meanwhile; a crashed instance's claims lapse).
   */
  claimDeliveries(now: number, limit: number, claimMs: number): MaybePromise<DueDelivery[]>;
  /** Records an attempt of a claimed delivery and ends the claim. */
  recordAttempt(id: number, attempt: AttemptRecord): MaybePromise<void>;
  /** Ends a claim without an attempt (the service is closing): due again at once. */
  releaseDelivery(id: number): MaybePromise<void>;
  /**
   * A test delivery of `rule` (body from `body(id)`), made pending and claimed by the caller for
   * `claimMs`; undefined when there is no such live rule.
   */
  addTestDelivery(
    ruleId: number,
    now: number,
    claimMs: number,
    body: (
      deliveryId: number,
      rule: AlertRule,
      project: string,
      format: Webhook['format'],
    ) => string,
  ): MaybePromise<DueDelivery | undefined>;
  /** The project's deliveries, newest first, `before` an id (keyset), at most `limit`. */
  listDeliveries(
    projectId: number,
    page: { before?: number; limit: number },
  ): MaybePromise<DeliveryLogRow[]>;
  close(): MaybePromise<void>;
}

/** Webhooks and rules: what each engine's setup part implements. */
export type AlertSetupPart = Pick<
  AlertStore,
  'addWebhook' | 'listWebhooks' | 'removeWebhook' | 'addRule' | 'listRules' | 'removeRule'
>;

/** Claims, attempts, test deliveries and the log: what each engine's deliveries part implements. */
export type DeliveriesPart = Pick<
  AlertStore,
  'claimDeliveries' | 'recordAttempt' | 'releaseDelivery' | 'addTestDelivery' | 'listDeliveries'
>;
