import type { BucketState, CardState, ProjectState } from '../../accept/index.ts';
import { createByteCache, stringBytes } from '../byte-cache.ts';
import type { CardFacts } from '../outcomes.ts';

const MiB = 1024 * 1024;
const ENTRY = 64;

/** A value known at one epoch of its account: valid while the account is still at that epoch. */
export interface Known<V> {
  account: number;
  epoch: number;
  value: V;
}

/** What one batch read, kept apart from the bounded cache until the batch is decided. */
export type Pinned = Map<string, Known<unknown>>;

/** A stored card as the batch decision and a shown answer need it. */
export interface KnownCard {
  facts: CardFacts;
  state: CardState;
  /** Named variants (not the `Other variants` row). */
  named: number;
}

export interface ProjectCounters {
  state: ProjectState;
  bucket: BucketState | null;
}

/**
 * What this instance knows of each account's ingest state, exact while the account stays at the
 * version the knowledge was read or written at. Each account has a version (from PostgreSQL) and
 * a local epoch; every entry is tagged with its account's epoch, so moving an account to another
 * epoch (its version changed behind this instance's back) forgets everything known of it at once,
 * and this instance's own writes, which move the version but are applied here too, keep it.
 * Bounded by estimated bytes, like the SQLite store's caches.
 */
export function createPgIngestCache(budgets: { bytes?: number } = {}) {
  const total = budgets.bytes ?? 24 * MiB;
  const accounts = new Map<number, { version: number; epoch: number }>();
  /** project id -> its account (never changes; learnt from the keys of each batch). */
  const projectAccounts = new Map<number, number>();
  let epochs = 0;
  const map = <V>(
    share: number,
    sizeOf: (key: string, value: Known<V>) => number,
    onEvict?: (key: string, value: Known<V>) => void,
  ) => createByteCache<string, Known<V>>({ maxBytes: total * share, sizeOf, onEvict });
  /** variant id -> its key in `variants`, to forget a variant this instance pruned. */
  const variantKeys = new Map<number, string>();
  const keyBytes = (k: string) => ENTRY + stringBytes(k);
  const maps = {
    /** `accountId:day` -> the account's accepted events that day. */
    accountUsage: map<number>(0.02, keyBytes),
    /** `accountId` -> active projects. */
    active: map<number>(0.02, keyBytes),
    /** `projectId` -> state and bucket. */
    projects: map<ProjectCounters>(0.02, (k) => keyBytes(k) + 96),
    /** `projectId:day` -> the project's accepted events that day. */
    projectUsage: map<number>(0.02, keyBytes),
    /** `projectId\0title` -> card id or null. */
    titles: map<number | null>(0.14, keyBytes),
    /** `projectId\0hash` -> the card with that description (and the text, compared on use). */
    descriptions: map<{ card: number | null; text: string }>(
      0.2,
      (k, v) => keyBytes(k) + stringBytes(v.value.text),
    ),
    /** `cardId` -> the card. */
    cards: map<KnownCard>(0.4, (k, v) => {
      const f = v.value.facts;
      return (
        keyBytes(k) +
        300 +
        stringBytes(f.title) +
        stringBytes(f.file_name) +
        40 * v.value.state.tags.length
      );
    }),
    /** `projectId\0release` -> its place in the order first seen (row id), or null: never seen. */
    releases: map<number | null>(0.02, keyBytes),
    /** `cardId\0identity` -> variant id or null. */
    variants: map<number | null>(
      0.16,
      (k) => 2 * keyBytes(k),
      (_, v) => v.value !== null && variantKeys.delete(v.value),
    ),
  };

  type Maps = typeof maps;
  type Value<N extends keyof Maps> = Maps[N] extends { get(k: string): Known<infer V> | undefined }
    ? V
    : never;
  const epochOf = (account: number) => accounts.get(account)?.epoch;
  const valid = <V>(known: Known<V> | undefined) =>
    known && epochOf(known.account) === known.epoch ? known : undefined;
  /**
   * What is known of `key` in map `name`: from `pinned` (this batch's reads, never evicted while
   * the batch decides) first, then the bounded cache.
   */
  const get = <N extends keyof Maps>(name: N, key: string, pinned?: Pinned): Value<N> | undefined =>
    (
      valid(pinned?.get(`${name}\u0001${key}`) as Known<Value<N>> | undefined) ??
      valid((maps[name] as { get(k: string): Known<Value<N>> | undefined }).get(key))
    )?.value;
  const set = <N extends keyof Maps>(
    name: N,
    account: number,
    key: string,
    value: Value<N>,
    pinned?: Pinned,
  ) => {
    const epoch = epochOf(account);
    if (epoch === undefined) return;
    const known = { account, epoch, value };
    (maps[name] as { set(k: string, v: Known<Value<N>>): void }).set(key, known);
    pinned?.set(`${name}\u0001${key}`, known);
  };

  return {
    maps,
    get,
    set,
    version: (account: number) => accounts.get(account)?.version,
    /** The account's current epoch (what is known of it is kept under it). */
    epoch: (account: number) => epochOf(account),
    learnProject: (project: number, account: number) => projectAccounts.set(project, account),
    accountOfProject: (project: number) => projectAccounts.get(project)!,
    /** The account of a card known at any epoch (undefined once it left the cache). */
    accountOfCard: (card: number, pinned?: Pinned) =>
      (pinned?.get(`cards\u0001${card}`) ?? maps.cards.get(String(card)))?.account,
    /**
     * The account's version as just read or written. A read at another version than the one known
     * forgets what was known (`ownWrite`: this instance moved it and applies its own changes).
     * True when it started the account over.
     */
    setVersion(account: number, version: number, ownWrite = false): boolean {
      const known = accounts.get(account);
      if (known && (known.version === version || ownWrite)) {
        known.version = version;
        return false;
      }
      accounts.set(account, { version, epoch: ++epochs });
      return true;
    },
    forget: (account: number) => accounts.delete(account),
    /** Makes `key` of map `name` unknown (it is read again when needed). */
    unknown: (name: keyof Maps, key: string) => maps[name].delete(key),
    /** The variant of `card` with `identity` (null: none). */
    setVariant(
      account: number,
      card: number,
      identity: string,
      id: number | null,
      pinned?: Pinned,
    ) {
      const key = `${card}\0${identity}`;
      set('variants', account, key, id, pinned);
      if (id !== null) variantKeys.set(id, key);
    },
    forgetVariant(id: number) {
      const key = variantKeys.get(id);
      if (key !== undefined) maps.variants.delete(key);
      variantKeys.delete(id);
    },
    clear() {
      accounts.clear();
      variantKeys.clear();
      for (const m of Object.values(maps)) m.clear();
    },
  };
}

export type PgIngestCache = ReturnType<typeof createPgIngestCache>;
