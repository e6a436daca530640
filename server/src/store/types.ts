// The storage seam: the HTTP layer and the admin API talk only to this interface, so a server
// database can replace the embedded SQLite store without touching either.
import type { SearchTerms } from './search.ts';
import type {
  AuthKey,
  Card,
  EncryptionKeyPair,
  IngestOptions,
  IngestOutcome,
  KeyKind,
  MaybePromise,
  Member,
  Account,
  Plan,
  Project,
  ProjectState,
  TaskReport,
  RateState,
} from '../domain/types.ts';
import type { AcceptConfig } from '../accept/index.ts';

export type * from '../domain/types.ts';

/** A key as stored: only hashes of publishable tokens and signing secrets. */
export interface NewKey {
  projectId: number;
  kind: KeyKind;
  name: string;
  /** sha256 hex of a publishable token, or the public key id (`svck_…`, `svcek_…`). */
  lookup: string;
  /** sha256 of the signing secret (secret keys): an HMAC key equivalent to the secret itself. */
  secretHash?: Buffer;
  origins?: string[];
  publicKey?: string;
  privateKey?: Buffer;
}

export interface KeySummary {
  id: number;
  projectId: number;
  kind: KeyKind;
  name: string;
  /** Public identifier (`svck_…`, `svcek_…`); null for publishable keys, whose token is never kept. */
  publicId: string | null;
  origins: string[];
  createdAt: string;
  revokedAt: string | null;
}

export interface Variant {
  title: string | null;
  description: string | null;
  file_name: string | null;
  line_number: number | null;
  count: number;
  first_seen_at: string;
  last_seen_at: string;
  /** True for the `Other variants` row, which counts pruned variants without their bodies. */
  aggregate: boolean;
}

/** A card as the admin API and `svc-server cards list` show it: the wire card, its triage, variants. */
export interface CardWithVariants extends Card {
  /** Reports that reopened the card after it was `done`. */
  regressions: number;
  /** When the last of them came (ISO), or null. */
  last_regressed_at: string | null;
  variants: Variant[];
}

export interface OutboxMail {
  id: number;
  accountId: number;
  to: string[];
  subject: string;
  text: string;
  createdAt: string;
  sentAt: string | null;
  attempts: number;
  lastError: string | null;
}

/** A project's e-mail notifications (new cards, regressions), when they are on. */
export interface NotificationSetting {
  projectId: number;
  /** Addresses to notify; null: every member of the project's account. */
  recipients: string[] | null;
  /** When the project's last digest was queued (ISO), or null. */
  lastSentAt: string | null;
}

/** When a project's digest is due: its oldest notice waited `delayMs`, its last mail `intervalMs`. */
export interface DigestTiming {
  delayMs: number;
  intervalMs: number;
}

export interface Store {
  createAccount(input: { name: string; plan: Plan; members: Member[] }): MaybePromise<Account>;
  getAccount(id: number): MaybePromise<Account | undefined>;
  listAccounts(): MaybePromise<Account[]>;
  createProject(input: { accountId: number; name: string }): MaybePromise<Project>;
  getProject(id: number): MaybePromise<Project | undefined>;
  listProjects(accountId?: number): MaybePromise<Project[]>;
  setProjectState(id: number, state: ProjectState): MaybePromise<Project>;
  insertKey(key: NewKey): MaybePromise<number>;
  listKeys(projectId: number): MaybePromise<KeySummary[]>;
  /** Returns false when no such live key exists. */
  revokeKey(id: number): MaybePromise<boolean>;
  findAuthKey(kind: 'publishable' | 'secret', lookup: string): MaybePromise<AuthKey | undefined>;
  /**
   * The key lookup of the ingestion route. A store whose `ingest` checks, in the write itself,
   * that each report's key is still live (else the outcome is `revoked`) may answer it from
   * memory. Optional: `findAuthKey` otherwise.
   */
  findIngestKey?(kind: 'publishable' | 'secret', lookup: string): MaybePromise<AuthKey | undefined>;
  /** A live encryption key of the project: by id, or the most recent one when keyId is absent. */
  findEncryptionKey(projectId: number, keyId?: string): MaybePromise<EncryptionKeyPair | undefined>;
  /**
   * The project's live encryption keys, most recent first, at most `limit` (for envelopes without
   * `key_id`). Optional: without it only `findEncryptionKey(projectId)` is tried.
   */
  listEncryptionKeys?(projectId: number, limit: number): MaybePromise<EncryptionKeyPair[]>;
  /** Burst state without spending an event (for answers that are not ingested). */
  rateState(projectId: number, plan: Plan): MaybePromise<RateState>;
  /**
   * Limits, quota, dedupe and variants in one atomic write; resolves after it committed. With
   * `{ card: false }` (a hidden answer) the outcome's `card` may be left unread.
   */
  ingest(key: AuthKey, report: TaskReport, opts?: IngestOptions): MaybePromise<IngestOutcome>;
  /**
   * A project's cards with their variants, by id: all of them, or (with `page`) at most `limit`
   * after the card `after`; with `search`, only the cards holding its words (as the board's
   * search box finds them, store/search.ts).
   */
  listCards(
    projectId: number,
    page?: { after?: number; limit: number; search?: SearchTerms },
  ): MaybePromise<CardWithVariants[]>;
  /** Turns a project's notifications on (`recipients` null: the account's members) or off (null). */
  setNotifications(
    projectId: number,
    on: { recipients: string[] | null } | null,
  ): MaybePromise<void>;
  listNotifications(): MaybePromise<NotificationSetting[]>;
  /**
   * Queues one digest e-mail per project whose notices are due (see `DigestTiming`), naming each
   * card once (ignored cards left out), and clears those notices. Returns the e-mails queued.
   */
  queueDigests(now: number, timing: DigestTiming): MaybePromise<number>;
  pendingMail(limit: number): MaybePromise<OutboxMail[]>;
  listMail(accountId?: number): MaybePromise<OutboxMail[]>;
  markMail(id: number, result: { sent: boolean; error?: string }): MaybePromise<void>;
  /**
   * Resolves when the database answers (a trivial query), for readiness checks. Optional: without
   * it readiness follows the outcome of the store's other calls. A failure the database will get
   * over by itself should throw a `StoreUnavailableError` (or an error `isUnavailable` knows).
   */
  ping?(): MaybePromise<void>;
  close(): MaybePromise<void>;
}

/** What every engine's ingestion is configured with: the acceptance rules and a clock. */
export interface IngestConfig extends AcceptConfig {
  now: () => number;
  /** Byte budgets of the read caches. @default see IngestCacheBudgets */
  cacheBudgets?: IngestCacheBudgets;
}

/** Byte budgets of the ingest's read caches. */
export interface IngestCacheBudgets {
  /** Card rows without descriptions. @default 16 MiB */
  cards?: number;
  /** Title -> card id (or a remembered miss). @default 4 MiB */
  titles?: number;
  /** Usage totals, project states, active project counts. @default 1 MiB each */
  counters?: number;
}
