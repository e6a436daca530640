import type Database from 'better-sqlite3';
import { createByteCache, stringBytes } from './byte-cache.ts';
import { planPrune, type VariantSighting, type VariantState } from '../accept/index.ts';

const KNOWN_BYTES = 4 * 1024 * 1024;

export const AGGREGATE_TITLE = 'Other variants';
const AGGREGATE_IDENTITY = '*aggregate*';

/**
 * Variants beneath a card (contract 2.4), as the acceptance decision describes them
 * (`VariantSighting`; identity = title + description + file_name + line_number). A novel payload
 * is stored; once a card holds more than `cap` variants, `planPrune` picks the least recently seen
 * ones, which are deleted and their counts folded into the single `Other variants` row (no
 * bodies, never pruned). Repeat sightings are counted in
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
    named: db.prepare(
      `SELECT id, count, first_seen_at AS firstSeenAt, last_seen_at AS lastSeenAt FROM variants
       WHERE card_id = ? AND aggregate = 0`,
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
  const keyOf = new Map<number, string>();
  const known = createByteCache<string, number>({
    maxBytes: KNOWN_BYTES,
    sizeOf: (k) => 2 * (64 + stringBytes(k)), // the entry and its reverse in keyOf
    onEvict: (_, id) => keyOf.delete(id),
  });
  const remember = (k: string, id: number) => {
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

  const prune = (cardId: number) => {
    if ((q.count.get(cardId) as number) <= cap) return;
    const plan = planPrune(q.named.all(cardId) as VariantState[], cap);
    for (const id of plan.remove) {
      q.remove.run(id);
      const k = keyOf.get(id);
      if (k !== undefined) known.delete(k);
      keyOf.delete(id);
    }
    if (plan.fold) {
      const f = plan.fold;
      q.fold.run(cardId, AGGREGATE_IDENTITY, AGGREGATE_TITLE, f.count, f.firstSeenAt, f.lastSeenAt);
    }
  };

  return {
    record(cardId: number, sighting: VariantSighting): void {
      const { identity, at: now } = sighting;
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
        sighting.title,
        sighting.description,
        sighting.fileName,
        sighting.lineNumber,
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
      pending.clear();
    },
  };
}
