import type { ReleaseOrdering } from '../accept/index.ts';
import type { Card, MaybePromise, Plan, ProjectState } from './types.ts';

type CardStatus = Card['status'];

// The board's storage seam, apart from the ingestion `Store`: admin tokens, their browser
// sessions and the read queries of the board pages. Times are Unix ms; days and hours are UTC
// (days and hours since the epoch). Every implementation must answer `listCards` from indexes
// (keyset pagination), whatever the number of cards, and examine a bounded number of cards per
// call under filters its indexes do not hold (see `CardPage.scan`).

export interface AdminTokenSummary {
  id: number;
  name: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface BoardProject {
  id: number;
  accountId: number;
  name: string;
  state: ProjectState;
  /** Cards on the project's board. */
  cards: number;
  /** Accepted events of the given day (the quota the project spent). */
  eventsToday: number;
}

export interface BoardAccount {
  id: number;
  name: string;
  plan: Plan;
  /** One page of the account's projects, by id. */
  projects: BoardProject[];
  /** All of the account's projects, and those active. */
  projectCount: number;
  activeProjects: number;
  /** Accepted events of the given day, all projects. */
  eventsToday: number;
}

/** A keyset page by id: rows after `after` (next) or before `before` (previous). */
export interface IdPage {
  after?: number;
  before?: number;
  limit: number;
}

/** A page of rows in id order, also when paging backwards; `more`: rows beyond it that way. */
export interface Paged<T> {
  rows: T[];
  more: boolean;
}

export type CardSort = 'last_seen' | 'first_seen' | 'count' | 'severity' | 'priority' | 'title';
export const CARD_SORTS: readonly CardSort[] = [
  'last_seen',
  'first_seen',
  'count',
  'severity',
  'priority',
  'title',
];

/** The sort key of a card row: the values the keyset compares, ending with the card id. */
export type SortKey = (string | number)[];

export interface CardQuery {
  sort: CardSort;
  dir: 'asc' | 'desc';
  /** Cards in one of these statuses; all when absent. */
  statuses?: readonly CardStatus[];
  severity?: string;
  priority?: string;
  /** Cards carrying exactly this tag. */
  tag?: string;
  /**
   * Search words (title, description, file name, tags; see `store/search.ts`): cards holding every
   * word, the end of each a prefix.
   */
  text?: string;
  /**
   * One environment's cards (those with a report from it), with their counts, first and last
   * seen there (`occurrenceCount`, `firstSeenAt`, `lastSeenAt`); every card when absent.
   */
  env?: string;
  /** Rows after this key in the query's order (next page); or before it (previous page). */
  after?: SortKey;
  before?: SortKey;
  limit: number;
}

export interface CardSummary {
  id: number;
  title: string;
  severity: string;
  priority: string;
  status: CardStatus;
  regressions: number;
  lastRegressedAt: number | null;
  tags: string[];
  occurrenceCount: number;
  descriptionType: Card['description_type'];
  /** In one environment's view (`CardQuery.env`): first and last seen there; else the card's. */
  firstSeenAt: number;
  lastSeenAt: number;
  fileName: string | null;
  /** The line sent, else the line of `fileName` in the description's first frames, else null. */
  lineNumber: number | null;
  /** This row's sort key under the query's sort, for `after` / `before`. */
  key: SortKey;
}

export interface CardPage {
  /** In the query's order, also when paging backwards. */
  cards: CardSummary[];
  /** More rows exist beyond this page in the direction of travel (or may: see `scan`). */
  more: boolean;
  /**
   * Present when a filter the index does not hold ran out of its budget before the page was full:
   * the cards examined, and the last key examined, from where the search goes on (as `after`, or
   * `before` when paging backwards).
   */
  scan?: { examined: number; resumeAt: SortKey };
}

/** Cards of one status that pass a query's filters; `atLeast`: counting stopped there. */
export interface FilteredCount {
  count: number;
  atLeast: boolean;
}

/** A project's environment: its cards per status (cards with a report from it). */
export interface BoardEnvironment {
  name: string;
  statusCounts: Record<CardStatus, number>;
}

/** A card's reports from one environment. */
export interface CardInEnvironment {
  env: string;
  occurrenceCount: number;
  firstSeenAt: number;
  lastSeenAt: number;
}

export interface BoardCard {
  id: number;
  projectId: number;
  title: string;
  description: string | null;
  descriptionType: Card['description_type'];
  severity: string;
  priority: string;
  status: CardStatus;
  regressions: number;
  lastRegressedAt: number | null;
  tags: string[];
  occurrenceCount: number;
  fileName: string | null;
  lineNumber: number | null;
  firstSeenAt: number;
  lastSeenAt: number;
  /** Events of the given day. */
  eventsToday: number;
}

export interface BoardVariant {
  id: number;
  title: string | null;
  /** Possibly cut to the requested length; see `descriptionLength`. */
  description: string | null;
  descriptionLength: number;
  fileName: string | null;
  lineNumber: number | null;
  count: number;
  firstSeenAt: number;
  lastSeenAt: number;
  /** The `Other variants` row: pruned variants counted without their bodies. */
  aggregate: boolean;
}

/** One line of a card's history: a status set by someone, or a regression (no actor). */
export interface CardEvent {
  id: number;
  at: number;
  kind: 'status' | 'regression';
  from: CardStatus;
  to: CardStatus;
  /** The admin token's name (board), `cli`, or null for a regression. */
  actor: string | null;
  /**
   * A regression: the release of the report that reopened the card, if it carried one. A status
   * set to `done`: the release it was resolved in (null: any).
   */
  release: string | null;
  /** A regression: the report's environment. `done`: the environment it was resolved in. */
  env: string | null;
  /** A regression of a card resolved in a release: how the report's release was found newer. */
  ordering: ReleaseOrdering | null;
}

/**
 * A status change asked for: the cards (of `projectId` only, when given), who, when. Resolving
 * (`done`) may name the environment (only a report from it reopens the card; absent: any) and a
 * release (only a report from it or a newer one reopens it; absent: any).
 */
export interface StatusChange {
  cardIds: readonly number[];
  projectId?: number;
  status: CardStatus;
  actor: string;
  at: number;
  env?: string;
  release?: string;
}

/** A card a status change found, with the status it had (equal to `to` when nothing changed). */
export interface StatusChanged {
  id: number;
  title: string;
  from: CardStatus;
  to: CardStatus;
}

/** A project page's project: its counts, the account's name and plan, cards per status. */
export type BoardProjectPage = BoardProject & {
  accountName: string;
  plan: Plan;
  statusCounts: Record<CardStatus, number>;
};

/** A bucket of `burst` failures, refilled at one per `everyMs`. */
export interface ThrottleRule {
  burst: number;
  everyMs: number;
}

export interface BoardStore {
  /**
   * A wrong admin token counted under `key` (a client, a token's hash; board/throttle.ts) at
   * `now`: spends one from its bucket when it has one (answers 0), else spends nothing and
   * answers the whole seconds until it has one again. This process's count (SQLite), or every
   * instance's (PostgreSQL).
   */
  signInFailed(key: string, now: number, rule: ThrottleRule): MaybePromise<number>;
  insertAdminToken(input: {
    name: string;
    lookup: string;
    createdAt: number;
  }): MaybePromise<number>;
  listAdminTokens(): MaybePromise<AdminTokenSummary[]>;
  /** Also ends the token's sessions. Returns false when no such live token exists. */
  revokeAdminToken(id: number, at: number): MaybePromise<boolean>;
  /** A live admin token by the sha256 hex of its value. */
  findAdminToken(lookup: string): MaybePromise<{ id: number; name: string } | undefined>;
  /** Stores a session (by the sha256 hex of its cookie value) and forgets expired ones. */
  insertSession(input: {
    lookup: string;
    tokenId: number;
    createdAt: number;
    expiresAt: number;
  }): MaybePromise<void>;
  /** A session that has not expired at `now` and whose token is live. */
  findSession(
    lookup: string,
    now: number,
  ): MaybePromise<{ tokenId: number; tokenName: string } | undefined>;
  deleteSession(lookup: string): MaybePromise<void>;

  /**
   * A page of accounts by id, each with its first `projectsPerAccount` projects, their card
   * counts and the events of `day`. Bounded work whatever the number of accounts or projects.
   */
  overview(
    day: number,
    page: IdPage & { projectsPerAccount: number },
  ): MaybePromise<Paged<BoardAccount>>;
  /** One account with a page of its projects (by id), or undefined. */
  getAccount(
    id: number,
    day: number,
    page: IdPage,
  ): MaybePromise<(BoardAccount & { more: boolean }) | undefined>;
  getProject(id: number, day: number): MaybePromise<BoardProjectPage | undefined>;
  listCards(projectId: number, query: CardQuery): MaybePromise<CardPage>;
  /**
   * The cards of each status that pass the query's filters (its sort and cursor aside), counted up
   * to a bound (`atLeast` past it): the status tabs of a filtered list.
   */
  countCards(projectId: number, query: CardQuery): MaybePromise<Record<CardStatus, FilteredCount>>;
  /** The project's environments, by name, with their cards per status. */
  listEnvironments(projectId: number): MaybePromise<BoardEnvironment[]>;
  /** The card's reports per environment, by name. */
  cardEnvironments(cardId: number): MaybePromise<CardInEnvironment[]>;
  /** As `cardHours`, for the card's reports from one environment. */
  cardEnvHours(
    cardId: number,
    env: string,
    fromHour: number,
    toHour: number,
  ): MaybePromise<number[]>;
  getCard(projectId: number, cardId: number, day: number): MaybePromise<BoardCard | undefined>;
  /** The card's variants, most recently seen first, `Other variants` last; bodies cut to `bodyChars`. */
  listVariants(cardId: number, bodyChars: number): MaybePromise<BoardVariant[]>;
  getVariant(cardId: number, variantId: number): MaybePromise<BoardVariant | undefined>;
  /** Events of the card per hour from `fromHour` to `toHour` inclusive, oldest first, zeros included. */
  cardHours(cardId: number, fromHour: number, toHour: number): MaybePromise<number[]>;
  /**
   * Sets the status of the given cards and records each change in their history, exactly under
   * concurrent ingestion (the store serialises it with the ingest of the cards' account). Returns
   * the cards found, in id order.
   */
  setCardStatus(change: StatusChange): MaybePromise<StatusChanged[]>;
  /**
   * Release names of a project (or of the card's project), the one first seen last first, at most
   * `limit`: what "the current release" is chosen from (`newestRelease`).
   */
  listReleases(
    scope: { projectId: number } | { cardId: number },
    limit: number,
  ): MaybePromise<string[]>;
  /** The card's history, newest first, at most `limit` entries (older than entry `before`). */
  cardHistory(cardId: number, limit: number, before?: number): MaybePromise<CardEvent[]>;
  close(): MaybePromise<void>;
}
