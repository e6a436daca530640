import { type CardRow, toListedCard, type VariantRow } from '../rows.ts';
import { tsQuery } from '../search.ts';
import { withoutNul } from './text.ts';
import type { IngestConfig, Store } from '../types.ts';
import { createPgAccounts } from './accounts.ts';
import { createAuthLookup, createKnownKeys } from './auth-lookup.ts';
import { createPgIngest } from './ingest.ts';
import { createPgKeys } from './keys.ts';
import { createPgMail } from './mail.ts';
import { createPgNotify } from './notify.ts';
import { migratePg } from './migrations.ts';
import { createPgPool, type PgDeadlineDb, queryWithin, withinDeadline } from './pool.ts';

export interface PgStoreOptions extends IngestConfig {
  /** `postgres://user:password@host:port/database`; the schema is migrated on open. */
  url: string;
  /** Connections this instance keeps open. @default 10 */
  poolSize?: number;
  /**
   * An admin call (accounts, projects, keys, cards) or key read PostgreSQL has not answered within
   * this fails as unavailable (503 in a request) and its connection is dropped; 0 for none (the
   * CLI, which may list large projects and has nobody else to serve). @default 5000
   */
  adminDeadlineMs?: number;
}

/**
 * The Store on PostgreSQL, for any number of service instances sharing one database. Nothing is
 * cached across requests: every read sees what any instance committed, so a revoked key is refused
 * on the very next request to any instance (an indexed lookup costs one round trip).
 */
export async function openPgStore(opts: PgStoreOptions): Promise<Store> {
  const pool = createPgPool({ url: opts.url, max: opts.poolSize });
  try {
    await migratePg(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const findAuthKey = createAuthLookup(pool);
  const knownKeys = createKnownKeys(findAuthKey);
  const ingest = createPgIngest(pool, opts, knownKeys.forget);
  const admin = withinDeadline(pool, opts.adminDeadlineMs ?? 5000);
  return {
    ...createPgAccounts(admin, opts.now),
    ...createPgKeys(admin, opts.now, knownKeys.forget),
    findAuthKey,
    findIngestKey: knownKeys.find,
    rateState: ingest.rateState,
    ingest: ingest.ingest,
    listCards: listCards(admin),
    ...createPgMail(admin),
    ping: async () => {
      await queryWithin(pool, 2000, 'SELECT 1');
    },
    ...createPgNotify(admin, opts.now),
    close: async () => {
      await ingest.drain();
      await pool.end();
    },
  };
}

/** A project's cards with their variants, as the admin API lists them: two queries. */
function listCards(db: PgDeadlineDb): Store['listCards'] {
  return async (projectId, page) => {
    const params: unknown[] = [projectId, page?.after ?? 0, page?.limit ?? null];
    const bind = (v: string) => `$${params.push(withoutNul(v))}`;
    const found = page?.search
      ? ` AND id IN (SELECT card_id FROM card_search WHERE doc @@ ${tsQuery(page.search, bind)})`
      : '';
    const cards = await db.query<CardRow>(
      `SELECT * FROM cards WHERE project_id = $1 AND id > $2${found} ORDER BY id LIMIT $3`,
      params,
    );
    const variants = await db.query<VariantRow & { card_id: number }>(
      `SELECT * FROM variants WHERE card_id = ANY($1)
         ORDER BY card_id, aggregate, last_seen_at DESC, id DESC`,
      [cards.map((c) => c.id)],
    );
    const byCard = new Map<number, VariantRow[]>();
    for (const v of variants) {
      const list = byCard.get(v.card_id) ?? [];
      list.push(v);
      byCard.set(v.card_id, list);
    }
    return cards.map((row) => toListedCard(row, byCard.get(row.id) ?? []));
  };
}
