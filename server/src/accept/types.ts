// The shapes of the acceptance decision (contract 3, 8.2, 8.3, 2.4): what a store reads for one
// report, what the pure functions decide, and what the store must write. No SQL, no I/O, no clock:
// any store (embedded SQLite, PostgreSQL) reads these, calls the functions and applies the writes.
import type { ReleaseOrdering } from './releases.ts';
import type {
  Card,
  Plan,
  PlanLimits,
  ProjectState,
  RateState,
  TaskReport,
} from '../domain/types.ts';

export type { Plan, PlanLimits, ProjectState, RateState, ReleaseOrdering, TaskReport };

/** Where a card stands on the board: the spec's `Card.status` (see `CARD_STATUSES`). */
export type CardStatus = Card['status'];

/** Static rules of acceptance. */
export interface AcceptConfig {
  /** Burst limit and daily quota per plan (contract 8.2, 8.3). */
  plans: Record<Plan, PlanLimits>;
  /** Share of the daily pool one project may use while the account has several active projects. */
  projectQuotaShare: number;
  /** Variants kept per card before the least recently seen fold into `Other variants`. */
  variantCap: number;
  /** The most tags one card keeps; tags beyond it are not merged. @default unbounded */
  tagsPerCard?: number;
}

/**
 * A project's token bucket (contract 8.2): `tokens` (fractional) as of `updatedAt` (Unix ms).
 * Capacity is the plan's per-minute limit, refilled continuously at capacity per 60 s.
 * A store keeps it per project (a row, or memory); `null` when none was kept (a full bucket).
 */
export interface BucketState {
  tokens: number;
  updatedAt: number;
}

/** The project's counters, read (under the project's lock) before deciding one report. */
export interface CounterRead {
  plan: Plan;
  projectState: ProjectState;
  bucket: BucketState | null;
  /** Accepted events of the whole account on the UTC day of `now` (see `utcDay`). */
  accountUsage: number;
  /** Accepted events of this project on that day. */
  projectUsage: number;
  /** The account's projects in state `active`. */
  activeProjects: number;
}

/** A card's mutable part, as the store holds it (read under the card's lock before folding). */
export interface CardState {
  id: number;
  status: CardStatus;
  /** Times a report reopened the card after it was `done`. */
  regressions: number;
  tags: readonly string[];
  occurrenceCount: number;
  lastSeenAt: number;
  /** UTC day of `usageCount`, the card's events that day (for the warning mail's top cards). */
  usageDay: number | null;
  usageCount: number;
  /**
   * While `done`: the environment it was resolved in (only a report from there reopens it; null:
   * any) and the release (only a report from it or a newer one reopens it; null: any).
   */
  resolvedEnv: string | null;
  resolvedRelease: string | null;
}

/** Everything one report's decision needs: the counters plus the card it matches, if any. */
export interface AcceptRead extends CounterRead {
  /** The project's card with the report's title, else with its non-blank description, else null. */
  card: CardState | null;
}

export type DropReason = 'quota' | 'paused' | 'archived';

export type Decision =
  | { kind: 'dropped'; reason: DropReason; rate: RateState }
  | { kind: 'rate_limited'; rate: RateState; retryAfter: number }
  | { kind: 'created' | 'deduplicated'; rate: RateState };

/** A quota-warning threshold the account crossed with this report (contract 6, 8.3 rule 3). */
export interface QuotaWarning {
  /** Percent of the daily quota, one of the generated `WARNING_THRESHOLDS`. */
  threshold: number;
  day: number;
  /** The account's accepted events that day, this report included. */
  used: number;
  quota: number;
}

/** Counter writes of an admitted report. */
export interface CounterWrites {
  /** The project's bucket after spending one token. */
  bucket: BucketState;
  /** Add one accepted event to the account's and the project's usage of this UTC day. */
  usageDay: number;
  /** Thresholds crossed, each to be queued at most once per account and day. */
  warnings: QuotaWarning[];
}

/** The card of a report that matched none: insert it (its id comes from the store). */
export interface NewCard {
  title: string;
  description: string | null;
  /** sha256 hex of a non-blank description, else null (see `descriptionHash`). */
  descriptionHash: string | null;
  descriptionType: Card['description_type'];
  priority: TaskReport['priority'];
  severity: TaskReport['severity'];
  tags: string[];
  /** `todo`: ingestion never creates a card in another status (contract 2.3). */
  status: CardStatus;
  fileName: string | null;
  lineNumber: number | null;
  createdAt: number;
  lastSeenAt: number;
  occurrenceCount: number;
  usageDay: number;
  usageCount: number;
}

/** The card's new counters and tags after folding a report into it. */
export interface CardUpdate {
  id: number;
  occurrenceCount: number;
  lastSeenAt: number;
  /** The merged tags when they changed, else null (nothing to write). */
  tags: string[] | null;
  usageDay: number;
  usageCount: number;
  /** Set when the report reopened a `done` card: write the new status, count and history row. */
  regression: Regression | null;
}

/** A report folded into a `done` card: the card goes back to `todo` and the return is recorded. */
export interface Regression {
  from: CardStatus;
  to: CardStatus;
  /** The card's regressions, this one included. */
  regressions: number;
  at: number;
  /** The value of the report's `release:` tag (contract 2.1), if it has one. */
  release: string | null;
  /** The report's environment (`environmentOf`). */
  environment: string;
  /** How the release was found to be the resolved one or newer; null when resolved in none. */
  ordering: ReleaseOrdering | null;
}

/** What the project's watchers hear of (when its notifications are on): a new card, a regression. */
export interface CardNotice {
  kind: 'new' | 'regression';
  /** The report's release (its `release:` tag), or null. */
  release: string | null;
  /** The report's environment (`environmentOf`: production without an `env:` tag). */
  environment: string;
}

export type CardWrite = { kind: 'insert'; card: NewCard } | { kind: 'update'; card: CardUpdate };

/**
 * One sighting of a payload beneath its card (contract 2.4): the store adds one to the variant
 * with this identity, or inserts it and then prunes with `planPrune`.
 */
export interface VariantSighting {
  /** sha256 hex of title + description + file_name + line_number (see `variantIdentity`). */
  identity: string;
  title: string;
  description: string | null;
  fileName: string | null;
  lineNumber: number | null;
  at: number;
}

/** Card writes of an admitted report. */
export interface CardWrites {
  card: CardWrite;
  variant: VariantSighting;
}

/** Everything the store writes for one report, in one transaction. Empty for drops and 429s. */
export interface AcceptWrites {
  counters?: CounterWrites;
  card?: CardWrites;
}

export interface Admission {
  /** `created` and `deduplicated` read as admitted until the card is folded. */
  decision:
    Exclude<Decision, { kind: 'created' | 'deduplicated' }> | { kind: 'admitted'; rate: RateState };
  counters?: CounterWrites;
}

export interface Folded {
  kind: 'created' | 'deduplicated';
  writes: CardWrites;
  /** The card's status after this report (what the answer shows). */
  status: CardStatus;
  /** A notification to queue for the card, or null (repeats, ignored cards). */
  notice: CardNotice | null;
}

export interface AcceptResult {
  decision: Decision;
  writes: AcceptWrites;
}

/** A stored variant, as `planPrune` needs it. */
export interface VariantState {
  id: number;
  count: number;
  firstSeenAt: number;
  lastSeenAt: number;
}

/** Variants to delete and the counts to fold into the `Other variants` row. */
export interface PrunePlan {
  remove: number[];
  fold: { count: number; firstSeenAt: number; lastSeenAt: number } | null;
}
