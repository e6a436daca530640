import type Database from 'better-sqlite3';
import { sha256Hex } from '../core/hash.ts';
import type { TaskReport } from './types.ts';

export const AGGREGATE_TITLE = 'Other variants';
const AGGREGATE_IDENTITY = '*aggregate*';

/**
 * Variants beneath a card (contract 2.4). Identity = title + description + file_name +
 * line_number (absent counts as a value). A novel payload is stored; once a card holds more than
 * `cap` variants the least recently seen ones are pruned and their counts fold into the single
 * `Other variants` row, which keeps no bodies and is never pruned. Repeat sightings are counted in
 * memory and written by `flush` (called at the end of each batch, inside its transaction).
 */
export function createVariantRecorder(db: Database.Database, cap: number) {
  const q = {
    find: db.prepare('SELECT id FROM variants WHERE card_id = ? AND identity = ?').pluck(),
    touch: db.prepare('UPDATE variants SET count = count + ?, last_seen_at = ? WHERE id = ?'),
    insert: db.prepare(
      `INSERT INTO variants (card_id, identity, aggregate, title, description, file_name,
         line_number, count, first_seen_at, last_seen_at) VALUES (?, ?, 0, ?, ?, ?, ?, 1, ?, ?)`,
    ),
    count: db.prepare('SELECT COUNT(*) FROM variants WHERE card_id = ? AND aggregate = 0').pluck(),
    oldest: db.prepare(
      `SELECT id, count, first_seen_at, last_seen_at FROM variants
       WHERE card_id = ? AND aggregate = 0 ORDER BY last_seen_at, id LIMIT ?`,
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
  /** `cardId:identity` -> variant id and the sightings not yet written. */
  const pending = new Map<string, { id: number; cardId: number; add: number; last: number }>();
  /** `cardId:identity` -> variant id, across batches (only this process writes variants). */
  const known = new Map<string, number>();
  const keyOf = new Map<number, string>();
  /** card id -> its variants with bodies (not the aggregate row), once counted. */
  const counts = new Map<number, number>();
  const remember = (k: string, id: number) => {
    if (known.size > 100_000) {
      known.clear();
      keyOf.clear();
      counts.clear();
    }
    known.set(k, id);
    keyOf.set(id, k);
  };

  const flushCard = (cardId?: number) => {
    for (const [k, p] of pending) {
      if (cardId !== undefined && p.cardId !== cardId) continue;
      if (p.add > 0) q.touch.run(p.add, p.last, p.id);
      pending.delete(k);
    }
  };

  /** After inserting a variant: past the cap, the least recently seen fold into the aggregate. */
  const prune = (cardId: number) => {
    const count = (counts.get(cardId) ?? (q.count.get(cardId) as number) - 1) + 1;
    const excess = count - cap;
    counts.set(cardId, Math.min(count, cap));
    if (excess <= 0) return;
    const victims = q.oldest.all(cardId, excess) as {
      id: number;
      count: number;
      first_seen_at: number;
      last_seen_at: number;
    }[];
    for (const v of victims) {
      q.remove.run(v.id);
      const k = keyOf.get(v.id);
      if (k !== undefined) known.delete(k);
      keyOf.delete(v.id);
      q.fold.run(
        cardId,
        AGGREGATE_IDENTITY,
        AGGREGATE_TITLE,
        v.count,
        v.first_seen_at,
        v.last_seen_at,
      );
    }
  };

  return {
    record(cardId: number, r: TaskReport, now: number): void {
      const identity = sha256Hex(
        JSON.stringify([r.title, r.description, r.file_name, r.line_number]),
      );
      const k = `${cardId}:${identity}`;
      const seen = pending.get(k);
      if (seen) {
        seen.add += 1;
        seen.last = now;
        return;
      }
      const id = known.get(k) ?? (q.find.get(cardId, identity) as number | undefined);
      if (id !== undefined) {
        remember(k, id);
        pending.set(k, { id, cardId, add: 1, last: now });
        return;
      }
      flushCard(cardId); // pruning orders by last seen: the card's counts must be on disk
      const info = q.insert.run(
        cardId,
        identity,
        r.title,
        r.description,
        r.file_name,
        r.line_number,
        now,
        now,
      );
      prune(cardId);
      pending.set(k, { id: Number(info.lastInsertRowid), cardId, add: 0, last: now });
      remember(k, Number(info.lastInsertRowid));
    },
    flush: () => flushCard(),
    invalidate: () => {
      known.clear();
      keyOf.clear();
      counts.clear();
      pending.clear();
    },
  };
}
