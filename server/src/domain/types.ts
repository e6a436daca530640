// The service's own words (contract 2, 3, 5, 8): plans, accounts, projects, keys, a validated
// report, a card, the rate state and the outcome of ingesting one report. Every layer of the path
// route -> auth -> accept -> store reads them from here; none owns them.
import type { PlanName } from '../generated/limits.gen.ts';
import type { components } from '../generated/wire.gen.ts';

type Schemas = components['schemas'];

/** A plan of the spec's `x-svc-plans`. */
export type Plan = PlanName;
export type ProjectState = 'active' | 'paused' | 'archived';
export type Role = 'owner' | 'admin' | 'member';
export type KeyKind = 'publishable' | 'secret' | 'encryption';
export type MaybePromise<T> = T | Promise<T>;

/**
 * The largest id of any row: ids are 32-bit integers on PostgreSQL (and never grow past that on
 * SQLite), so a larger id from a URL or a command line names nothing (404, never a database error).
 */
export const MAX_ID = 2 ** 31 - 1;

export interface PlanLimits {
  burstPerMinute: number;
  dailyEvents: number;
}

export interface Member {
  email: string;
  role: Role;
}

export interface Account {
  id: number;
  name: string;
  plan: Plan;
  members: Member[];
}

export interface Project {
  id: number;
  accountId: number;
  name: string;
  state: ProjectState;
}

/** What authentication needs to know about a live key. */
export interface AuthKey {
  id: number;
  kind: KeyKind;
  projectId: number;
  accountId: number;
  plan: Plan;
  secretHash: Buffer | null;
  origins: string[];
}

export interface EncryptionKeyPair {
  keyId: string;
  publicKey: Uint8Array;
  privateKey: Uint8Array;
}

/**
 * A validated, normalised report (contract section 2.1): the spec's `TaskReport` with every field
 * present (absent optional ones as null, priority defaulted, title derived) and tags as an array.
 */
export type TaskReport = {
  [K in 'severity' | 'description' | 'file_name' | 'line_number']-?: Exclude<
    Schemas['TaskReport'][K],
    undefined
  >;
} & {
  priority: Schemas['Priority'];
  title: string;
  tags: string[];
};

/** The spec's `Card`, plus the location of the first report (the contract leaves it open). */
export type Card = Schemas['Card'] & {
  file_name: string | null;
  line_number: number | null;
};

export interface RateState {
  limit: number;
  remaining: number;
}

export interface IngestOptions {
  /** The answer shows the card, so the outcome's `card` is read. @default true */
  card?: boolean;
}

export type IngestOutcome =
  | { kind: 'created' | 'deduplicated'; card: Card; rate: RateState; mailQueued: boolean }
  | { kind: 'dropped'; reason: 'quota' | 'paused' | 'archived'; rate: RateState }
  | { kind: 'rate_limited'; rate: RateState; retryAfter: number }
  /** The key was revoked before the report could be written (answered 401, nothing stored). */
  | { kind: 'revoked' };
