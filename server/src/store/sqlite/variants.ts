import type Database from 'better-sqlite3';
import type { BatchWrites, VariantState } from '../../accept/index.ts';
import { createByteCache, stringBytes } from '../byte-cache.ts';
import { AGGREGATE_IDENTITY, AGGREGATE_TITLE } from '../rows.ts';

const KNOWN_BYTES = 4 * 1024 * 1024;
const COUNTS_BYTES = 1024 * 1024;

function prepareVariants(db: Database.Database) {
  return {
    find: db.prepare('SELECT id FROM variants WHERE card_id = ? AND identity = ?').pluck(),
    touch: db.prepare('UPDATE variants SET count = count + ?, last_seen_at = ? WHERE id = ?'),
    insert: db.prepare(
      `INSERT INTO variants (card_id, identity, aggregate, title, description, file_name,
         line_number, count, first_seen_at, last_seen_at) VALUES (?, ?, 0, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    count: db.prepare('SELECT COUNT(*) FROM variants WHERE card_id = ? AND aggregate = 0').pluck(),
    named: db.prepare(
      `SELECT id, count, first_seen_at AS firstSeenAt, last_seen_at AS lastSeenAt FROM variants
       WHERE card_id = ? AND aggregate = 0 ORDER BY id`,
    ),
    remove: db.prepare('DELETE FROM variants WHERE id = ?'),
    fold: db.prepare(
      `INSERT INTO variants (card_id, identity, aggregate, title, count, first_seen_at, last_seen_at)
       VALUES (?, ?, 1, ?, ?, ?, ?)
       ON CONFLICT (card_id, identity) DO UPDATE SET count = count + excluded.count,
         first_seen_at = MIN(first_seen_at, excluded.first_seen_at),
         last_seen_at = MAX(last_seen_at, excluded.last_seen_at)`,
    ),
  };
}

type VariantWrites = Pick<
  BatchWrites,
  'variantAdds' | 'variantRemovals' | 'variantInserts' | 'variantFolds'
>;

/**
 * Variants beneath a card (contract 2.4) on SQLite: the batch's questions (a variant's id by
 * identity, the named count, the named list for pruning) answered from memory where it can
 * (variant ids and named counts, exact because only this process writes variants), and the
 * batch's variant writes applied in its transaction.
 */
export class SqliteVariants {
  readonly #q: ReturnType<typeof prepareVariants>;
  /** `cardId:identity` -> variant id, and the reverse (to forget pruned ones). */
  readonly #keyOf = new Map<number, string>();
  readonly #known = createByteCache<string, number>({
    maxBytes: KNOWN_BYTES,
    sizeOf: (k) => 2 * (64 + stringBytes(k)), // the entry and its reverse in keyOf
    onEvict: (_, id) => this.#keyOf.delete(id),
  });
  /** card id -> its named variants (not the aggregate row), once counted. */
  readonly #counts = createByteCache<number, number>({
    maxBytes: COUNTS_BYTES,
    sizeOf: () => 64,
  });

  constructor(db: Database.Database) {
    this.#q = prepareVariants(db);
  }

  variantId(cardId: number, identity: string): number | null {
    const k = `${cardId}:${identity}`;
    const cached = this.#known.get(k);
    if (cached !== undefined) return cached;
    const id = this.#q.find.get(cardId, identity) as number | undefined;
    if (id === undefined) return null;
    this.#remember(k, id);
    return id;
  }

  namedCount(cardId: number): number {
    return this.#counts.get(cardId) ?? (this.#q.count.get(cardId) as number);
  }

  namedVariants(cardId: number): VariantState[] {
    return this.#q.named.all(cardId) as VariantState[];
  }

  /** Applies the batch's variant rows; `idOf` maps a card ref to its id. */
  write(
    w: VariantWrites,
    idOf: (cardRef: number) => number,
    namedAfter: (cardRef: number) => number | undefined,
  ): void {
    for (const a of w.variantAdds) this.#q.touch.run(a.add, a.lastSeenAt, a.id);
    for (const id of w.variantRemovals) {
      this.#q.remove.run(id);
      this.#forget(id);
    }
    this.#insert(w, idOf, namedAfter);
    for (const f of w.variantFolds) {
      const cardId = idOf(f.cardRef);
      this.#q.fold.run(
        cardId,
        AGGREGATE_IDENTITY,
        AGGREGATE_TITLE,
        f.count,
        f.firstSeenAt,
        f.lastSeenAt,
      );
      const named = namedAfter(f.cardRef);
      if (named !== undefined) this.#counts.set(cardId, named);
    }
  }

  invalidate(): void {
    this.#known.clear();
    this.#counts.clear();
    this.#keyOf.clear();
  }

  /** New variants, remembered by identity; each card's named count after the batch. */
  #insert(
    w: VariantWrites,
    idOf: (cardRef: number) => number,
    namedAfter: (cardRef: number) => number | undefined,
  ): void {
    const counted = new Set<number>();
    for (const v of w.variantInserts) {
      const cardId = idOf(v.cardRef);
      const s = v.sighting;
      const id = Number(
        this.#q.insert.run(
          cardId,
          s.identity,
          s.title,
          s.description,
          s.fileName,
          s.lineNumber,
          v.count,
          v.firstSeenAt,
          v.lastSeenAt,
        ).lastInsertRowid,
      );
      this.#remember(`${cardId}:${s.identity}`, id);
      if (!counted.has(v.cardRef)) {
        counted.add(v.cardRef);
        const named = namedAfter(v.cardRef);
        if (named !== undefined) this.#counts.set(cardId, named);
      }
    }
  }

  #remember(k: string, id: number): void {
    this.#known.set(k, id);
    this.#keyOf.set(id, k);
  }

  #forget(id: number): void {
    const k = this.#keyOf.get(id);
    if (k !== undefined) this.#known.delete(k);
    this.#keyOf.delete(id);
  }
}
