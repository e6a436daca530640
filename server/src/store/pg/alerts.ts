import type pg from 'pg';
import type { AlertStore } from '../alert-types.ts';
import {
  attemptColumns,
  type DueRow,
  LOG_SQL,
  type LogRow,
  RULE_INSERT_COLUMNS,
  type RuleRow,
  ruleValues,
  toDue,
  toLogRow,
  toRule,
  toWebhook,
  type WebhookRow,
} from '../alert-rows.ts';
import { createPgPlan } from './alert-plan.ts';
import { migratePg } from './migrations.ts';
import { createPgPool, withinDeadline } from './pool.ts';

/** Each alert query or transaction is given up after this (the caller sees it unavailable). */
const ALERT_DEADLINE_MS = 5000;

const DUE_COLUMNS = 'd.id, d.event, d.body, d.attempts, w.url, w.format, w.secret_hash';

/** Removes a rule, cancels its pending deliveries, forgets its marks and unused counts. */
async function dropRule(c: pg.PoolClient, ruleId: number, at: number): Promise<boolean> {
  const { rows } = await c.query<{ project_id: number }>(
    'UPDATE alert_rules SET removed_at = $1 WHERE id = $2 AND removed_at IS NULL RETURNING project_id',
    [at, ruleId],
  );
  if (rows.length === 0) return false;
  await c.query(
    `UPDATE alert_deliveries SET state = 'cancelled', finished_at = $1, claimed_until = NULL
     WHERE rule_id = $2 AND state = 'pending'`,
    [at, ruleId],
  );
  await c.query('DELETE FROM alert_marks WHERE rule_id = $1', [ruleId]);
  await c.query(
    `DELETE FROM alert_counts WHERE project_id = $1 AND NOT EXISTS (SELECT 1 FROM alert_rules
       WHERE project_id = $1 AND event = 'frequency' AND removed_at IS NULL)`,
    [rows[0]!.project_id],
  );
  return true;
}

/**
 * Alerts on PostgreSQL, with a small pool of their own: every instance plans and delivers, and
 * claims (`FOR UPDATE SKIP LOCKED`, then `claimed_until`) make each delivery one instance's at a
 * time; a crashed instance's claims lapse and another takes them over.
 */
export async function openPgAlertStore(opts: {
  url: string;
  now?: () => number;
}): Promise<AlertStore> {
  const now = opts.now ?? Date.now;
  const pool = createPgPool({ url: opts.url, max: 3 });
  try {
    await migratePg(pool);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const db = withinDeadline(pool, ALERT_DEADLINE_MS);
  const plan = createPgPlan(db);
  const one = async <T extends pg.QueryResultRow>(sql: string, values: unknown[]) =>
    (await db.query<T>(sql, values))[0];
  return {
    async addWebhook(w) {
      const row = await one<WebhookRow>(
        `INSERT INTO webhooks (project_id, name, url, format, secret_hash, created_at)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
        [w.projectId, w.name, w.url, w.format, w.secretHash, now()],
      );
      return toWebhook(row!);
    },
    async getWebhook(id) {
      const row = await one<WebhookRow>(
        'SELECT * FROM webhooks WHERE id = $1 AND removed_at IS NULL',
        [id],
      );
      return row && { ...toWebhook(row), secretHash: row.secret_hash };
    },
    listWebhooks: async (projectId) =>
      (
        await db.query<WebhookRow>(
          'SELECT * FROM webhooks WHERE project_id = $1 AND removed_at IS NULL ORDER BY id',
          [projectId],
        )
      ).map(toWebhook),
    removeWebhook: (id) =>
      db.transaction(async (c) => {
        const at = now();
        const dropped = await c.query(
          'UPDATE webhooks SET removed_at = $1 WHERE id = $2 AND removed_at IS NULL',
          [at, id],
        );
        if (dropped.rowCount === 0) return false;
        const rules = await c.query<{ id: number }>(
          'SELECT id FROM alert_rules WHERE webhook_id = $1 AND removed_at IS NULL ORDER BY id',
          [id],
        );
        for (const rule of rules.rows) await dropRule(c, rule.id, at);
        return true;
      }),
    async addRule(rule) {
      const row = await one<RuleRow>(
        `INSERT INTO alert_rules (${RULE_INSERT_COLUMNS})
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9 WHERE EXISTS (SELECT 1 FROM webhooks
           WHERE id = $2 AND project_id = $1 AND removed_at IS NULL)
         RETURNING *`,
        ruleValues(rule, now()),
      );
      return row && toRule(row);
    },
    async getRule(id) {
      const row = await one<RuleRow>(
        'SELECT * FROM alert_rules WHERE id = $1 AND removed_at IS NULL',
        [id],
      );
      return row && toRule(row);
    },
    listRules: async (projectId) =>
      (
        await db.query<RuleRow>(
          'SELECT * FROM alert_rules WHERE project_id = $1 AND removed_at IS NULL ORDER BY id',
          [projectId],
        )
      ).map(toRule),
    removeRule: (id) => db.transaction((c) => dropRule(c, id, now())),
    planAlerts: plan,
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
    close: () => pool.end(),
  };
}
