import type pg from 'pg';
import { sha256Hex } from '../../core/hash.ts';
import type { TaskReport } from '../types.ts';
import { AGGREGATE_TITLE } from '../variants.ts';

const AGGREGATE_IDENTITY = '*aggregate*';

/**
 * Variants beneath a card (contract 2.4) on PostgreSQL, for one batch: the same rules as the
 * SQLite recorder (identity = title + description + file_name + line_number; past `cap` the least
 * recently seen fold into `Other variants`). Repeat sightings are summed in memory and written by
 * `flush` before COMMIT. Nothing outlives the batch: other instances write variants too.
 */
export function createPgVariantBatch(client: pg.PoolClient, cap: number) {
  const pending = new Map<string, { id: number; cardId: number; add: number; last: number }>();

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
    const { rows } = await client.query<{ n: number }>(
      'SELECT COUNT(*)::integer AS n FROM variants WHERE card_id = $1 AND aggregate = 0',
      [cardId],
    );
    const excess = rows[0]!.n - cap;
    if (excess <= 0) return;
    const victims = await client.query<{ id: number; count: number; first: number; last: number }>(
      `DELETE FROM variants WHERE id IN (SELECT id FROM variants WHERE card_id = $1 AND aggregate = 0
         ORDER BY last_seen_at, id LIMIT $2)
       RETURNING id, count, first_seen_at AS first, last_seen_at AS last`,
      [cardId, excess],
    );
    const ids = new Set(victims.rows.map((v) => v.id));
    for (const [k, p] of pending) if (ids.has(p.id)) pending.delete(k);
    for (const v of victims.rows) {
      await client.query(
        `INSERT INTO variants (card_id, identity, aggregate, title, count, first_seen_at, last_seen_at)
         VALUES ($1, $2, 1, $3, $4, $5, $6)
         ON CONFLICT (card_id, identity) DO UPDATE SET count = variants.count + excluded.count,
           first_seen_at = LEAST(variants.first_seen_at, excluded.first_seen_at),
           last_seen_at = GREATEST(variants.last_seen_at, excluded.last_seen_at)`,
        [cardId, AGGREGATE_IDENTITY, AGGREGATE_TITLE, v.count, v.first, v.last],
      );
    }
  };

  return {
    async record(cardId: number, r: TaskReport, now: number): Promise<void> {
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
      const found = await client.query<{ id: number }>(
        'SELECT id FROM variants WHERE card_id = $1 AND identity = $2',
        [cardId, identity],
      );
      if (found.rows[0]) {
        pending.set(k, { id: found.rows[0].id, cardId, add: 1, last: now });
        return;
      }
      await flushCard(cardId); // pruning orders by last seen: the card's counts must be written
      const inserted = await client.query<{ id: number }>(
        `INSERT INTO variants (card_id, identity, aggregate, title, description, file_name,
           line_number, count, first_seen_at, last_seen_at)
         VALUES ($1, $2, 0, $3, $4, $5, $6, 1, $7, $7) RETURNING id`,
        [cardId, identity, r.title, r.description, r.file_name, r.line_number, now],
      );
      const id = inserted.rows[0]!.id;
      pending.set(k, { id, cardId, add: 0, last: now });
      await prune(cardId);
    },
    flush: () => flushCard(),
  };
}
