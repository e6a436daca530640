import type pg from 'pg';
import type { BucketState } from '../../accept/index.ts';
import type { CardRow } from '../rows.ts';

export interface BatchWrites {
  buckets: Map<number, BucketState>;
  /** [accountId, day, projectId, accepted events] */
  usage: Iterable<[number, number, number, number]>;
  cards: Iterable<CardRow>;
  /** Sightings to add to existing variant rows. */
  variants: Iterable<{ id: number; add: number; last: number }>;
}

/**
 * Everything a batch accumulated, in one statement (one round trip while the account locks are
 * held): data-modifying CTEs over `unnest`ed arrays, each table touched once, each row once.
 */
export async function writeBatch(client: pg.PoolClient, w: BatchWrites): Promise<void> {
  const buckets = [...w.buckets];
  const usage = [...w.usage];
  const cards = [...w.cards];
  const variants = [...w.variants];
  if (buckets.length + usage.length + cards.length + variants.length === 0) return;
  await client.query(
    `WITH b AS (
       INSERT INTO buckets (project_id, tokens, updated_at)
       SELECT * FROM unnest($1::integer[], $2::double precision[], $3::bigint[])
       ON CONFLICT (project_id) DO UPDATE SET tokens = excluded.tokens,
         updated_at = excluded.updated_at),
     u AS (
       INSERT INTO usage (account_id, day, project_id, count)
       SELECT * FROM unnest($4::integer[], $5::integer[], $6::integer[], $7::integer[])
       ON CONFLICT (account_id, day, project_id) DO UPDATE SET count = usage.count + excluded.count),
     c AS (
       UPDATE cards SET occurrence_count = x.occurrences, last_seen_at = x.last_seen, tags = x.tags,
         usage_day = x.usage_day, usage_count = x.usage_count
       FROM unnest($8::integer[], $9::integer[], $10::bigint[], $11::text[], $12::integer[],
         $13::integer[]) AS x(id, occurrences, last_seen, tags, usage_day, usage_count)
       WHERE cards.id = x.id),
     v AS (
       UPDATE variants SET count = variants.count + x.add, last_seen_at = x.last
       FROM unnest($14::integer[], $15::integer[], $16::bigint[]) AS x(id, add, last)
       WHERE variants.id = x.id)
     SELECT 1`,
    [
      buckets.map(([id]) => id),
      buckets.map(([, b]) => b.tokens),
      buckets.map(([, b]) => b.updatedAt),
      usage.map((u) => u[0]),
      usage.map((u) => u[1]),
      usage.map((u) => u[2]),
      usage.map((u) => u[3]),
      cards.map((c) => c.id),
      cards.map((c) => c.occurrence_count),
      cards.map((c) => c.last_seen_at),
      cards.map((c) => c.tags),
      cards.map((c) => c.usage_day),
      cards.map((c) => c.usage_count),
      variants.map((v) => v.id),
      variants.map((v) => v.add),
      variants.map((v) => v.last),
    ],
  );
}
