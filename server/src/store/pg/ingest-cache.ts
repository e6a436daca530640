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

/** The cache's maps, each bounded by its share of `total` bytes. */
function ingestMaps(total: number, variantKeys: Map<number, string>) {
  const map = <V>(
    share: number,
    sizeOf: (key: string, value: Known<V>) => number,
    onEvict?: (key: string, value: Known<V>) => void,
  ) => createByteCache<string, Known<V>>({ maxBytes: total * share, sizeOf, onEvict });
  const keyBytes = (k: string) => ENTRY + stringBytes(k);
  return {
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
}

type Maps = ReturnType<typeof ingestMaps>;
type Value<N extends keyof Maps> = Maps[N] extends { get(k: string): Known<infer V> | undefined }
  ? V
  : never;

/**
 * What this instance knows of each account's ingest state, exact while the account stays at the
 * version the knowledge was read or written at. Each account has a version (from PostgreSQL) and
 * a local epoch; every entry is tagged with its account's epoch, so moving an account to another
 * epoch (its version changed behind this instance's back) forgets everything known of it at once,
 * and this instance's own writes, which move the version but are applied here too, keep it.
 * Bounded by estimated bytes, like the SQLite store's caches.
 */
export class PgIngestCache {
  readonly #accounts = new Map<number, { version: number; epoch: number }>();
  /** project id -> its account (never changes; learnt from the keys of each batch). */
  readonly #projectAccounts = new Map<number, number>();
  /** variant id -> its key in `variants`, to forget a variant this instance pruned. */
  readonly #variantKeys = new Map<number, string>();
  #epochs = 0;
  readonly maps: Maps;

  constructor(budgets: { bytes?: number } = {}) {
    this.maps = ingestMaps(budgets.bytes ?? 24 * MiB, this.#variantKeys);
  }

  /**
   * What is known of `key` in map `name`: from `pinned` (this batch's reads, never evicted while
   * the batch decides) first, then the bounded cache.
   */
  get<N extends keyof Maps>(name: N, key: string, pinned?: Pinned): Value<N> | undefined {
    return (
      this.#valid(pinned?.get(`${name}\u0001${key}`) as Known<Value<N>> | undefined) ??
      this.#valid((this.maps[name] as { get(k: string): Known<Value<N>> | undefined }).get(key))
    )?.value;
  }

  set<N extends keyof Maps>(
    name: N,
    account: number,
    key: string,
    value: Value<N>,
    pinned?: Pinned,
  ): void {
    const epoch = this.epoch(account);
    if (epoch === undefined) return;
    const known = { account, epoch, value };
    (this.maps[name] as { set(k: string, v: Known<Value<N>>): void }).set(key, known);
    pinned?.set(`${name}\u0001${key}`, known);
  }

  version(account: number): number | undefined {
    return this.#accounts.get(account)?.version;
  }

  /** The account's current epoch (what is known of it is kept under it). */
  epoch(account: number): number | undefined {
    return this.#accounts.get(account)?.epoch;
  }

  learnProject(project: number, account: number): void {
    this.#projectAccounts.set(project, account);
  }

  accountOfProject(project: number): number {
    return this.#projectAccounts.get(project)!;
  }

  /** The account of a card known at any epoch (undefined once it left the cache). */
  accountOfCard(card: number, pinned?: Pinned): number | undefined {
    return (pinned?.get(`cards\u0001${card}`) ?? this.maps.cards.get(String(card)))?.account;
  }

  /**
   * The account's version as just read or written. A read at another version than the one known
   * forgets what was known (`ownWrite`: this instance moved it and applies its own changes).
   * True when it started the account over.
   */
  setVersion(account: number, version: number, ownWrite = false): boolean {
    const known = this.#accounts.get(account);
    if (known && (known.version === version || ownWrite)) {
      known.version = version;
      return false;
    }
    this.#accounts.set(account, { version, epoch: ++this.#epochs });
    return true;
  }

  forget(account: number): boolean {
    return this.#accounts.delete(account);
  }

  /** Makes `key` of map `name` unknown (it is read again when needed). */
  unknown(name: keyof Maps, key: string): void {
    this.maps[name].delete(key);
  }

  /** The variant of `card` with `identity` (null: none). */
  setVariant(account: number, card: number, identity: string, id: number | null, pinned?: Pinned) {
    const key = `${card}\0${identity}`;
    this.set('variants', account, key, id, pinned);
    if (id !== null) this.#variantKeys.set(id, key);
  }

  forgetVariant(id: number): void {
    const key = this.#variantKeys.get(id);
    if (key !== undefined) this.maps.variants.delete(key);
    this.#variantKeys.delete(id);
  }

  clear(): void {
    this.#accounts.clear();
    this.#variantKeys.clear();
    for (const m of Object.values(this.maps)) m.clear();
  }

  #valid<V>(known: Known<V> | undefined): Known<V> | undefined {
    return known && this.epoch(known.account) === known.epoch ? known : undefined;
  }
}

/** An empty cache of what this instance knows (see `PgIngestCache`). */
export const createPgIngestCache = (budgets: { bytes?: number } = {}): PgIngestCache =>
  new PgIngestCache(budgets);
