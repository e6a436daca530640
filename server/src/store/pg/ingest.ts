import type pg from 'pg';
import { detectDescriptionType } from '../../core/detect.ts';
import { sha256Hex } from '../../core/hash.ts';
import type { IngestConfig } from '../ingest.ts';
import { iso, toCard, type CardRow } from '../rows.ts';
import type { AuthKey, IngestOutcome, Plan, RateState, TaskReport } from '../types.ts';
import { groupCommitPg } from './batch.ts';
import { createPgVariantBatch } from './variants.ts';
import { queueQuotaWarnings } from './warnings.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;

type Item = [AuthKey, TaskReport];

/**
 * The ingest on PostgreSQL, exact across instances. A batch first locks the row of every account
 * it touches (`SELECT … FOR NO KEY UPDATE`, in id order, so batches never deadlock). Quota is an
 * account-wide pool, so the account, not the project, is the unit that must be serialised: while
 * an instance holds it, no other instance decides for that account, and every read made after the
 * lock (project states, burst, usage, cards, variants) sees all earlier commits. Reports of the
 * batch are then decided one after another with the same rules as the SQLite store; counters are
 * written once at the end, with `INSERT … ON CONFLICT` for usage rows.
 */
export function createPgIngest(pool: pg.Pool, config: IngestConfig) {
  const runBatch = async (client: pg.PoolClient, items: Item[]): Promise<IngestOutcome[]> => {
    const accounts = [...new Set(items.map(([key]) => key.accountId))].sort((a, b) => a - b);
    await client.query('SELECT id FROM accounts WHERE id = ANY($1) ORDER BY id FOR NO KEY UPDATE', [
      accounts,
    ]);
    const q = async <T extends pg.QueryResultRow>(sql: string, values: unknown[]) =>
      (await client.query<T>(sql, values)).rows;
    const memo = async <K, V>(m: Map<K, V>, k: K, load: () => Promise<V>): Promise<V> => {
      if (m.has(k)) return m.get(k) as V;
      const v = await load();
      m.set(k, v);
      return v;
    };

    const states = new Map<number, string>();
    const active = new Map<number, number>();
    const totals = new Map<string, number>();
    const bursts = new Map<number, { minute: number; count: number }>();
    const cards = new Map<number, CardRow>();
    const byTitle = new Map<string, CardRow | undefined>();
    const dirtyCards = new Map<number, CardRow>();
    const usage = new Map<string, [number, number, number, number]>();
    const variants = createPgVariantBatch(client, config.variantCap);

    const flushCards = async () => {
      for (const [id, row] of dirtyCards) {
        await client.query(
          `UPDATE cards SET occurrence_count = $1, last_seen_at = $2, tags = $3, usage_day = $4,
             usage_count = $5 WHERE id = $6`,
          [row.occurrence_count, row.last_seen_at, row.tags, row.usage_day, row.usage_count, id],
        );
      }
      dirtyCards.clear();
    };

    const decide = async (key: AuthKey, report: TaskReport): Promise<IngestOutcome> => {
      const now = config.now();
      const state = await memo(states, key.projectId, async () => {
        const rows = await q<{ state: string }>('SELECT state FROM projects WHERE id = $1', [
          key.projectId,
        ]);
        return rows[0]!.state;
      });
      const minute = Math.floor(now / MINUTE);
      const { burstPerMinute: limit, dailyEvents } = config.plans[key.plan];
      const b = await memo(bursts, key.projectId, async () => {
        const rows = await q<{ minute: number; count: number }>(
          'SELECT minute, count FROM burst WHERE project_id = $1',
          [key.projectId],
        );
        return rows[0] ?? { minute, count: 0 };
      });
      if (b.minute !== minute) {
        b.minute = minute;
        b.count = 0;
      }
      if (state === 'paused' || state === 'archived') {
        return {
          kind: 'dropped',
          reason: state,
          rate: { limit, remaining: Math.max(0, limit - b.count) },
        };
      }
      if (b.count >= limit) {
        const retryAfter = Math.max(1, Math.ceil(((minute + 1) * MINUTE - now) / 1000));
        return { kind: 'rate_limited', rate: { limit, remaining: 0 }, retryAfter };
      }
      b.count += 1;
      const rateNow = { limit, remaining: limit - b.count };

      const day = Math.floor(now / DAY);
      const accKey = `${key.accountId}:${day}`;
      const projKey = `${accKey}:${key.projectId}`;
      const total = await memo(totals, accKey, async () => {
        const rows = await q<{ n: number }>(
          'SELECT COALESCE(SUM(count), 0)::integer AS n FROM usage WHERE account_id = $1 AND day = $2',
          [key.accountId, day],
        );
        return rows[0]!.n;
      });
      if (total >= dailyEvents) return { kind: 'dropped', reason: 'quota', rate: rateNow };
      const mine = await memo(totals, projKey, async () => {
        const rows = await q<{ count: number }>(
          'SELECT count FROM usage WHERE account_id = $1 AND day = $2 AND project_id = $3',
          [key.accountId, day, key.projectId],
        );
        return rows[0]?.count ?? 0;
      });
      const activeCount = await memo(active, key.accountId, async () => {
        const rows = await q<{ n: number }>(
          "SELECT COUNT(*)::integer AS n FROM projects WHERE account_id = $1 AND state = 'active'",
          [key.accountId],
        );
        return rows[0]!.n;
      });
      if (activeCount > 1 && mine >= Math.floor(dailyEvents * config.projectQuotaShare)) {
        return { kind: 'dropped', reason: 'quota', rate: rateNow };
      }
      totals.set(accKey, total + 1);
      totals.set(projKey, mine + 1);
      const u = usage.get(projKey);
      if (u) u[3] += 1;
      else usage.set(projKey, [key.accountId, day, key.projectId, 1]);

      const titleKey = `${key.projectId}\0${report.title}`;
      const canonical = (r: CardRow | undefined) => r && (cards.get(r.id) ?? r);
      let row = canonical(
        await memo(byTitle, titleKey, async () => {
          const rows = await q<CardRow>(
            'SELECT * FROM cards WHERE project_id = $1 AND title = $2 ORDER BY id LIMIT 1',
            [key.projectId, report.title],
          );
          return rows[0];
        }),
      );
      const blank = report.description === null || report.description.trim() === '';
      const descHash = blank ? null : sha256Hex(report.description!);
      if (!row && descHash) {
        await flushCards(); // a card created earlier in this batch must be found by description
        const rows = await q<CardRow>(
          `SELECT * FROM cards WHERE project_id = $1 AND description_hash = $2 AND description = $3
           ORDER BY id LIMIT 1`,
          [key.projectId, descHash, report.description],
        );
        row = canonical(rows[0]);
      }
      let kind: 'created' | 'deduplicated';
      if (row) {
        kind = 'deduplicated';
        cards.set(row.id, row);
        const tags = JSON.parse(row.tags) as string[];
        const before = tags.length;
        for (const t of report.tags) if (!tags.includes(t)) tags.push(t);
        if (tags.length !== before) row.tags = JSON.stringify(tags);
        row.occurrence_count += 1;
        row.last_seen_at = now;
      } else {
        kind = 'created';
        const rows = await q<CardRow>(
          `INSERT INTO cards (project_id, title, description, description_hash, description_type,
             priority, severity, tags, status, occurrence_count, file_name, line_number, created_at,
             last_seen_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'todo', 1, $9, $10, $11, $11) RETURNING *`,
          [
            key.projectId,
            report.title,
            report.description,
            descHash,
            detectDescriptionType(report.description),
            report.priority,
            report.severity,
            JSON.stringify(report.tags),
            report.file_name,
            report.line_number,
            now,
          ],
        );
        row = rows[0]!;
        cards.set(row.id, row);
        byTitle.set(titleKey, row);
      }
      if (row.usage_day !== day) {
        row.usage_day = day;
        row.usage_count = 0;
      }
      row.usage_count += 1;
      dirtyCards.set(row.id, row);
      await variants.record(row.id, report, now);

      let mailQueued = false;
      const mark = (pct: number) => Math.ceil((dailyEvents * pct) / 100);
      if ([75, 90, 100].some((p) => total < mark(p) && total + 1 >= mark(p))) {
        await flushCards(); // the warning names the top cards of the day
        mailQueued = await queueQuotaWarnings(client, {
          accountId: key.accountId,
          day,
          before: total,
          after: total + 1,
          quota: dailyEvents,
          at: iso(now),
        });
      }
      const snapshot = { ...row };
      return { kind, card: toCard(snapshot), rate: rateNow, mailQueued };
    };

    const outcomes: IngestOutcome[] = [];
    for (const [key, report] of items) outcomes.push(await decide(key, report));
    for (const [projectId, b] of bursts) {
      await client.query(
        `INSERT INTO burst (project_id, minute, count) VALUES ($1, $2, $3)
         ON CONFLICT (project_id) DO UPDATE SET minute = excluded.minute, count = excluded.count`,
        [projectId, b.minute, b.count],
      );
    }
    for (const [acc, day, proj, n] of usage.values()) {
      await client.query(
        `INSERT INTO usage (account_id, day, project_id, count) VALUES ($1, $2, $3, $4)
         ON CONFLICT (account_id, day, project_id) DO UPDATE SET count = usage.count + excluded.count`,
        [acc, day, proj, n],
      );
    }
    await flushCards();
    await variants.flush();
    return outcomes;
  };

  const batches = groupCommitPg(pool, runBatch);
  return {
    ingest: (key: AuthKey, report: TaskReport) => batches.submit([key, report]),
    drain: batches.drain,
    async rateState(projectId: number, plan: Plan): Promise<RateState> {
      const limit = config.plans[plan].burstPerMinute;
      const minute = Math.floor(config.now() / MINUTE);
      const { rows } = await pool.query<{ count: number }>(
        'SELECT count FROM burst WHERE project_id = $1 AND minute = $2',
        [projectId, minute],
      );
      return { limit, remaining: Math.max(0, limit - (rows[0]?.count ?? 0)) };
    },
  };
}
