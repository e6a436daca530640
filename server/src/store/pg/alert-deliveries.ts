import type { DeliveriesPart } from '../alert-types.ts';
import {
  attemptColumns,
  type DueRow,
  LOG_SQL,
  type LogRow,
  type RuleRow,
  toDue,
  toLogRow,
  toRule,
  type WebhookRow,
} from '../alert-rows.ts';
import type { PgDeadlineDb } from './pool.ts';

const DUE_COLUMNS = 'd.id, d.event, d.body, d.attempts, w.url, w.format, w.secret_hash';

/**
 * Deliveries on PostgreSQL: every instance claims due ones `FOR UPDATE SKIP LOCKED` and marks them
 * `claimed_until` (an instance that crashed mid-attempt lets go when it lapses), records attempts,
 * adds test deliveries and reads the log; each within the store's deadline.
 */
export function createPgDeliveries(db: PgDeadlineDb): DeliveriesPart {
  return {
    claimDeliveries: async (at, limit, claimMs) =>
      (
        await db.query<DueRow>(
          `WITH claimed AS (UPDATE alert_deliveries SET claimed_until = $1 WHERE id IN (
             SELECT id FROM alert_deliveries WHERE state = 'pending' AND next_at <= $2
               AND (claimed_until IS NULL OR claimed_until < $2)
             ORDER BY next_at, id LIMIT $3 FOR UPDATE SKIP LOCKED) RETURNING *)
           SELECT ${DUE_COLUMNS} FROM claimed d JOIN webhooks w ON w.id = d.webhook_id
           ORDER BY d.next_at, d.id`,
          [at + claimMs, at, limit],
        )
      ).map(toDue),
    async recordAttempt(id, a) {
      const c = attemptColumns(a);
      await db.query(
        `UPDATE alert_deliveries SET attempts = attempts + 1, state = $1, last_status = $2,
           last_error = $3, next_at = $4, finished_at = $5, claimed_until = NULL
         WHERE id = $6 AND state = 'pending'`,
        [c.state, c.status, c.error, c.nextAt, c.finishedAt, id],
      );
    },
    async releaseDelivery(id) {
      await db.query('UPDATE alert_deliveries SET claimed_until = NULL WHERE id = $1', [id]);
    },
    addTestDelivery: (ruleId, at, claimMs, body) =>
      db.transaction(async (c) => {
        const found = await c.query<RuleRow & { format: WebhookRow['format']; project: string }>(
          `SELECT r.*, w.format, p.name AS project FROM alert_rules r
             JOIN webhooks w ON w.id = r.webhook_id AND w.removed_at IS NULL
             JOIN projects p ON p.id = r.project_id
           WHERE r.id = $1 AND r.removed_at IS NULL`,
          [ruleId],
        );
        const row = found.rows[0];
        if (!row) return undefined;
        const rule = toRule(row);
        const inserted = await c.query<{ id: number }>(
          `INSERT INTO alert_deliveries (project_id, rule_id, webhook_id, card_id, event, body,
             created_at, next_at, claimed_until) VALUES ($1, $2, $3, NULL, 'test', '', $4, $4, $5)
           RETURNING id`,
          [rule.projectId, rule.id, rule.webhookId, at, at + claimMs],
        );
        const id = inserted.rows[0]!.id;
        await c.query('UPDATE alert_deliveries SET body = $1 WHERE id = $2', [
          body(id, rule, row.project, row.format),
          id,
        ]);
        const due = await c.query<DueRow>(
          `SELECT ${DUE_COLUMNS} FROM alert_deliveries d JOIN webhooks w ON w.id = d.webhook_id
           WHERE d.id = $1`,
          [id],
        );
        return toDue(due.rows[0]!);
      }),
    listDeliveries: async (projectId, page) =>
      (
        await db.query<LogRow>(
          LOG_SQL.replace('$PROJECT', '$1').replace('$BEFORE', '$2').replace('$LIMIT', '$3'),
          [projectId, page.before ?? 2 ** 31 - 1, page.limit],
        )
      ).map(toLogRow),
  };
}
