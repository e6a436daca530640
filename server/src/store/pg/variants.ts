import type pg from 'pg';
import { planPrune, type VariantSighting, type VariantState } from '../../accept/index.ts';
import { AGGREGATE_TITLE } from '../variants.ts';

const AGGREGATE_IDENTITY = '*aggregate*';

/**
 * Variants beneath a card (contract 2.4) on PostgreSQL, for one batch, as the acceptance decision
 * describes them (`VariantSighting`). A novel payload is inserted; past the cap `planPrune` picks
 * the least recently seen, which are deleted and folded into `Other variants`. Repeat sightings
 * are summed in memory and written by `flush` before COMMIT. Nothing outlives the batch: other
 * instances write variants too (under the same account lock, so never at the same time).
 */
export function createPgVariantBatch(client: pg.PoolClient, cap: number) {
  const pending = new Map<string, { id: number; cardId: number; add: number; last: number }>();
  /** Named variants per card, once known in this batch (a card created in it starts at 0). */
  const named = new Map<number, number>();

  const flushCard = async (cardId?: number) => {
    for (const [k, p] of pending) {
      if (cardId !== undefined && p.cardId !== cardId) continue;
      if (p.add > 0) {
        await client.query(
          'UPDATE variants SET count = count + $1, last_seen_at = $2 WHERE id = $3',
          [p.add, p.last, p.id],
        );
      }
      pending.delete(k);
    }
  };

  const prune = async (cardId: number) => {
    await flushCard(cardId); // pruning orders by last seen: the card's counts must be written
    const { rows } = await client.query<VariantState>(
      `SELECT id, count, first_seen_at AS "firstSeenAt", last_seen_at AS "lastSeenAt"
       FROM variants WHERE card_id = $1 AND aggregate = 0`,
      [cardId],
    );
    if (rows.length <= cap) return;
    const plan = planPrune(rows, cap);
    if (plan.remove.length > 0) {
      await client.query('DELETE FROM variants WHERE id = ANY($1)', [plan.remove]);
      const removed = new Set(plan.remove);
      for (const [k, p] of pending) if (removed.has(p.id)) pending.delete(k);
    }
    if (plan.fold) {
      const f = plan.fold;
      await client.query(
        `INSERT INTO variants (card_id, identity, aggregate, title, count, first_seen_at, last_seen_at)
         VALUES ($1, $2, 1, $3, $4, $5, $6)
         ON CONFLICT (card_id, identity) DO UPDATE SET count = variants.count + excluded.count,
           first_seen_at = LEAST(variants.first_seen_at, excluded.first_seen_at),
           last_seen_at = GREATEST(variants.last_seen_at, excluded.last_seen_at)`,
        [cardId, AGGREGATE_IDENTITY, AGGREGATE_TITLE, f.count, f.firstSeenAt, f.lastSeenAt],
      );
    }
  };

  return {
    /** `created`: the card was inserted in this batch, so its variants are all in `pending`. */
    async record(cardId: number, sighting: VariantSighting, created: boolean): Promise<void> {
      const { identity, at: now } = sighting;
      const k = `${cardId}:${identity}`;
      const seen = pending.get(k);
      if (seen) {
        seen.add += 1;
        seen.last = Math.max(seen.last, now);
        return;
      }
      if (created) named.set(cardId, named.get(cardId) ?? 0);
      else {
        const found = await client.query<{ id: number }>(
          'SELECT id FROM variants WHERE card_id = $1 AND identity = $2',
          [cardId, identity],
        );
        if (found.rows[0]) {
          pending.set(k, { id: found.rows[0].id, cardId, add: 1, last: now });
          return;
        }
      }
      const inserted = await client.query<{ id: number }>(
        `INSERT INTO variants (card_id, identity, aggregate, title, description, file_name,
           line_number, count, first_seen_at, last_seen_at)
         VALUES ($1, $2, 0, $3, $4, $5, $6, 1, $7, $7) RETURNING id`,
        [
          cardId,
          identity,
          sighting.title,
          sighting.description,
          sighting.fileName,
          sighting.lineNumber,
          now,
        ],
      );
      pending.set(k, { id: inserted.rows[0]!.id, cardId, add: 0, last: now });
      let count = named.get(cardId);
      if (count === undefined) {
        const { rows } = await client.query<{ n: number }>(
          'SELECT COUNT(*)::integer AS n FROM variants WHERE card_id = $1 AND aggregate = 0',
          [cardId],
        );
        count = rows[0]!.n; // the insert above included
      } else count += 1;
      named.set(cardId, Math.min(count, cap));
      if (count > cap) await prune(cardId);
    },
    flush: () => flushCard(),
    /** The sightings not yet written, handed over for the batch's final statement. */
    take() {
      const out = [...pending.values()].filter((p) => p.add > 0);
      pending.clear();
      return out;
    },
  };
}
