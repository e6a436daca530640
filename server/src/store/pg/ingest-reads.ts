import type pg from 'pg';
import type { BucketState, CardState, ProjectState } from '../../accept/index.ts';
import type { CardRow } from '../rows.ts';

export const cardStateOf = (row: CardRow): CardState => ({
  id: row.id,
  status: row.status,
  regressions: row.regressions,
  tags: JSON.parse(row.tags) as string[],
  occurrenceCount: row.occurrence_count,
  lastSeenAt: row.last_seen_at,
  usageDay: row.usage_day,
  usageCount: row.usage_count,
});

/**
 * The reads of one ingest batch, memoised for the batch only (other instances write between
 * batches). Made after the batch locked its accounts, so each sees every earlier commit.
 */
export function createBatchReads(client: pg.PoolClient) {
  const cache = new Map<string, unknown>();
  const memo = async <V>(key: string, load: () => Promise<V>): Promise<V> => {
    if (cache.has(key)) return cache.get(key) as V;
    const value = await load();
    cache.set(key, value);
    return value;
  };
  const first = async <T extends pg.QueryResultRow>(sql: string, values: unknown[]) =>
    (await client.query<T>(sql, values)).rows[0];

  return {
    /** Reads are memoised under these keys; `set` keeps them current as the batch decides. */
    set: (key: string, value: unknown) => cache.set(key, value),
    /**
     * Two queries instead of a handful per project and one per title: the counters of every
     * project of the batch on `day`, and the cards their titles match (misses memoised too).
     */
    async prefetch(items: readonly { projectId: number; title: string }[], day: number) {
      const projects = [...new Set(items.map((i) => i.projectId))];
      const counters = await client.query<{
        id: number;
        accountId: number;
        state: ProjectState;
        tokens: number | null;
        updatedAt: number | null;
        active: number;
        accountUsage: number;
        projectUsage: number;
      }>(
        `SELECT p.id, p.account_id AS "accountId", p.state, b.tokens, b.updated_at AS "updatedAt",
           (SELECT COUNT(*)::integer FROM projects o WHERE o.account_id = p.account_id
              AND o.state = 'active') AS active,
           (SELECT COALESCE(SUM(u.count), 0)::integer FROM usage u WHERE u.account_id = p.account_id
              AND u.day = $2) AS "accountUsage",
           COALESCE((SELECT u.count FROM usage u WHERE u.account_id = p.account_id AND u.day = $2
              AND u.project_id = p.id), 0) AS "projectUsage"
         FROM projects p LEFT JOIN buckets b ON b.project_id = p.id WHERE p.id = ANY($1)`,
        [projects, day],
      );
      for (const r of counters.rows) {
        cache.set(`state:${r.id}`, r.state);
        cache.set(
          `bucket:${r.id}`,
          r.tokens === null ? null : { tokens: r.tokens, updatedAt: r.updatedAt! },
        );
        cache.set(`active:${r.accountId}`, r.active);
        cache.set(`usage:${r.accountId}:${day}`, r.accountUsage);
        cache.set(`usage:${r.accountId}:${day}:${r.id}`, r.projectUsage);
      }
      const pairs = new Map(items.map((i) => [`title:${i.projectId}\0${i.title}`, i]));
      const cards = await client.query<CardRow>(
        `SELECT DISTINCT ON (c.project_id, c.title) c.* FROM cards c
         JOIN unnest($1::integer[], $2::text[]) AS t(project_id, title)
           ON c.project_id = t.project_id AND c.title = t.title
         ORDER BY c.project_id, c.title, c.id`,
        [[...pairs.values()].map((i) => i.projectId), [...pairs.values()].map((i) => i.title)],
      );
      for (const k of pairs.keys()) cache.set(k, undefined);
      for (const row of cards.rows) cache.set(`title:${row.project_id}\0${row.title}`, row);
    },
    projectState: (projectId: number) =>
      memo(`state:${projectId}`, async () => {
        const r = await first<{ state: ProjectState }>('SELECT state FROM projects WHERE id = $1', [
          projectId,
        ]);
        return r!.state;
      }),
    bucket: (projectId: number) =>
      memo(`bucket:${projectId}`, async (): Promise<BucketState | null> => {
        const r = await first<BucketState>(
          'SELECT tokens, updated_at AS "updatedAt" FROM buckets WHERE project_id = $1',
          [projectId],
        );
        return r ?? null;
      }),
    accountUsage: (accountId: number, day: number) =>
      memo(`usage:${accountId}:${day}`, async () => {
        const r = await first<{ n: number }>(
          'SELECT COALESCE(SUM(count), 0)::integer AS n FROM usage WHERE account_id = $1 AND day = $2',
          [accountId, day],
        );
        return r!.n;
      }),
    projectUsage: (accountId: number, day: number, projectId: number) =>
      memo(`usage:${accountId}:${day}:${projectId}`, async () => {
        const r = await first<{ count: number }>(
          'SELECT count FROM usage WHERE account_id = $1 AND day = $2 AND project_id = $3',
          [accountId, day, projectId],
        );
        return r?.count ?? 0;
      }),
    activeProjects: (accountId: number) =>
      memo(`active:${accountId}`, async () => {
        const r = await first<{ n: number }>(
          "SELECT COUNT(*)::integer AS n FROM projects WHERE account_id = $1 AND state = 'active'",
          [accountId],
        );
        return r!.n;
      }),
    cardByTitle: (projectId: number, title: string) =>
      memo(`title:${projectId}\0${title}`, () =>
        first<CardRow>(
          'SELECT * FROM cards WHERE project_id = $1 AND title = $2 ORDER BY id LIMIT 1',
          [projectId, title],
        ),
      ),
    cardByDescription: (projectId: number, hash: string, description: string) =>
      first<CardRow>(
        `SELECT * FROM cards WHERE project_id = $1 AND description_hash = $2 AND description = $3
         ORDER BY id LIMIT 1`,
        [projectId, hash, description],
      ),
  };
}
