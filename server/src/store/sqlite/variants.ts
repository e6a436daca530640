import type Database from 'better-sqlite3';
import type { BatchWrites, VariantState } from '../../accept/index.ts';
import { createByteCache, stringBytes } from '../byte-cache.ts';
import { AGGREGATE_IDENTITY, AGGREGATE_TITLE } from '../rows.ts';

const KNOWN_BYTES = 4 * 1024 * 1024;
const COUNTS_BYTES = 1024 * 1024;

/**
 * Variants beneath a card (contract 2.4) on SQLite: the batch's questions (a variant's id by
 * identity, the named count, the named list for pruning) answered from memory where it can
 * (variant ids and named counts, exact because only this process writes variants), and the
 * batch's variant writes applied in its transaction.
 */
export function createSqliteVariants(db: Database.Database) {
  const q = {
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
  /** `cardId:identity` -> variant id, and the reverse (to forget pruned ones). */
  const keyOf = new Map<number, string>();
  const known = createByteCache<string, number>({
    maxBytes: KNOWN_BYTES,
    sizeOf: (k) => 2 * (64 + stringBytes(k)), // the entry and its reverse in keyOf
    onEvict: (_, id) => keyOf.delete(id),
  });
  /** card id -> its named variants (not the aggregate row), once counted. */
  const counts = createByteCache<number, number>({ maxBytes: COUNTS_BYTES, sizeOf: () => 64 });
  const remember = (k: string, id: number) => {
    known.set(k, id);
    keyOf.set(id, k);
  };
  const forget = (id: number) => {
    const k = keyOf.get(id);
    if (k !== undefined) known.delete(k);
    keyOf.delete(id);
  };

  return {
    variantId(cardId: number, identity: string): number | null {
      const k = `${cardId}:${identity}`;
      const cached = known.get(k);
      if (cached !== undefined) return cached;
      const id = q.find.get(cardId, identity) as number | undefined;
      if (id === undefined) return null;
      remember(k, id);
      return id;
    },
    namedCount: (cardId: number): number => counts.get(cardId) ?? (q.count.get(cardId) as number),
    namedVariants: (cardId: number) => q.named.all(cardId) as VariantState[],
    /** Applies the batch's variant rows; `idOf` maps a card ref to its id. */
    write(
      w: Pick<BatchWrites, 'variantAdds' | 'variantRemovals' | 'variantInserts' | 'variantFolds'>,
      idOf: (cardRef: number) => number,
      namedAfter: (cardRef: number) => number | undefined,
    ) {
      for (const a of w.variantAdds) q.touch.run(a.add, a.lastSeenAt, a.id);
      for (const id of w.variantRemovals) {
        q.remove.run(id);
        forget(id);
      }
      const counted = new Set<number>();
      for (const v of w.variantInserts) {
        const cardId = idOf(v.cardRef);
        const s = v.sighting;
        const id = Number(
          q.insert.run(
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
        remember(`${cardId}:${s.identity}`, id);
        if (!counted.has(v.cardRef)) {
          counted.add(v.cardRef);
          const named = namedAfter(v.cardRef);
          if (named !== undefined) counts.set(cardId, named);
        }
      }
      for (const f of w.variantFolds) {
        const cardId = idOf(f.cardRef);
        q.fold.run(
          cardId,
          AGGREGATE_IDENTITY,
          AGGREGATE_TITLE,
          f.count,
          f.firstSeenAt,
          f.lastSeenAt,
        );
        const named = namedAfter(f.cardRef);
        if (named !== undefined) counts.set(cardId, named);
      }
    },
    invalidate: () => {
      known.clear();
      counts.clear();
      keyOf.clear();
    },
  };
}
