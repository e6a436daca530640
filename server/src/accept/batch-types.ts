// The shapes of a batch of reports decided together (see batch.ts): what a store must answer while
// the batch decides (`BatchView`, the committed state), what the batch tells it to write
// (`BatchWrites`), and each report's result (`Decided`). A store implements the view and applies
// the writes in the batch's transaction; the rules in between are the same for every store.
import type {
  AcceptConfig,
  BucketState,
  CardNotice,
  CardState,
  CardUpdate,
  Decision,
  NewCard,
  ProjectState,
  QuotaWarning,
  Regression,
  VariantSighting,
  VariantState,
} from './types.ts';

/** A project's counters as committed (the plan comes from the key). */
export interface StoredCounters {
  projectState: ProjectState;
  bucket: BucketState | null;
  /** The account's accepted events on `day`. */
  accountUsage: number;
  /** The project's accepted events on `day`. */
  projectUsage: number;
  activeProjects: number;
}

/**
 * The committed state a batch decides on, read under the batch's lock (or from caches that are
 * exact under it). Called synchronously while the batch decides; each question is asked at most
 * once per batch and key, so a store may answer from memory, from a prefetch or with a query.
 */
export interface BatchView {
  counters(accountId: number, projectId: number, day: number): StoredCounters;
  /** The project's card with this title (the lowest id when there are several), or null. */
  cardByTitle(projectId: number, title: string): CardState | null;
  /** The project's card with this non-blank description (`hash` is its sha256 hex), or null. */
  cardByDescription(projectId: number, hash: string, description: string): CardState | null;
  /** The id of the stored card's variant with this identity, or null. */
  variantId(cardId: number, identity: string): number | null;
  /** How many named variants (not the `Other variants` row) the stored card holds. */
  namedCount(cardId: number): number;
  /** The stored card's named variants, for pruning. */
  namedVariants(cardId: number): readonly VariantState[];
  /**
   * The release's place in the order the project first saw releases (ascending, e.g. its row id),
   * or null when never seen. Asked only to place a report against a card resolved in a release.
   */
  releaseSeen(projectId: number, name: string): number | null;
}

/** A card's reports from one environment in a batch (`cardRef`: a stored id or a new card's ref). */
export interface EnvCount {
  cardRef: number;
  env: string;
  count: number;
  firstSeenAt: number;
  lastSeenAt: number;
}

/** A release a batch's report carried; stored once per project (a known one is left as it is). */
export interface ReleaseSighting {
  projectId: number;
  name: string;
  at: number;
}

/** Rows this batch creates are referred to by refs from `PENDING_BASE` up until the store writes them. */
export const PENDING_BASE = 2 ** 52;

/** A card to insert; `card` holds its counters after every report of the batch. */
export interface CardInsert {
  ref: number;
  projectId: number;
  card: NewCard;
}

/** A stored card's counters after the batch; `tags` null when they did not change. */
export type CardCounters = Omit<CardUpdate, 'regression'>;

/** A variant to insert beneath `cardRef` (a stored id or a new card's ref). */
export interface VariantInsert {
  ref: number;
  cardRef: number;
  sighting: VariantSighting;
  count: number;
  firstSeenAt: number;
  lastSeenAt: number;
}

/** Pruned variants' counts, added to the card's `Other variants` row (created when missing). */
export interface VariantFold {
  cardRef: number;
  count: number;
  firstSeenAt: number;
  lastSeenAt: number;
}

/** Everything a batch writes, in one transaction, each row once. */
export interface BatchWrites {
  /** Each touched project's bucket after the batch. */
  buckets: Map<number, BucketState>;
  /** [accountId, day, projectId, accepted events] to add. */
  usage: [number, number, number, number][];
  cardInserts: CardInsert[];
  cardUpdates: CardCounters[];
  /** Cards reopened from `done` (status, count and a history row). */
  regressions: { id: number; regression: Regression }[];
  variantInserts: VariantInsert[];
  /** Sightings of stored variants: add to the count, move the last sighting. */
  variantAdds: { id: number; add: number; lastSeenAt: number }[];
  /** Stored variants pruned (their counts are in `variantFolds`). */
  variantRemovals: number[];
  variantFolds: VariantFold[];
  /** Each card's reports per environment (the board's per-environment counts, hours, last seen). */
  envCounts: EnvCount[];
  /** Releases seen, in the batch's order (the first sight of each orders releases). */
  releases: ReleaseSighting[];
  /** Notices for the project's next digest (written only where its notifications are on). */
  notices: { projectId: number; cardRef: number; notice: CardNotice; at: number }[];
  /**
   * Admitted reports per card, environment (`env:` tag, null without one) and UTC minute
   * (`floor(ms / 60000)`), for alert rules that count them (written only where a project has one).
   */
  occurrences: {
    projectId: number;
    cardRef: number;
    environment: string | null;
    minute: number;
    count: number;
  }[];
  /** Quota thresholds crossed, per account, in order (claimed once per account, day, threshold). */
  warnings: { accountId: number; warnings: QuotaWarning[] }[];
}

/** One report's result; `card` and `cardRef` for admitted reports. */
export interface Decided {
  decision: Decision;
  /** The card's id, or a new card's ref until the store maps it to the id. */
  cardRef?: number;
  /** The card's state right after this report (what a shown answer reports). */
  card?: CardState;
  /** Set when the report's card is new in this batch (made by this report or an earlier one). */
  insert?: CardInsert;
  /** Thresholds this report crossed. */
  warnings?: QuotaWarning[];
}

export type BatchConfig = Pick<
  AcceptConfig,
  'plans' | 'projectQuotaShare' | 'variantCap' | 'tagsPerCard'
>;
