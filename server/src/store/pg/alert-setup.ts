import type pg from 'pg';
import type { AlertSetupPart } from '../alert-types.ts';
import {
  RULE_INSERT_COLUMNS,
  type RuleRow,
  ruleValues,
  toRule,
  toWebhook,
  type WebhookRow,
} from '../alert-rows.ts';
import type { PgDeadlineDb } from './pool.ts';

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

/** Webhooks and rules on PostgreSQL, each query and transaction within the store's deadline. */
export function createPgAlertSetup(db: PgDeadlineDb, now: () => number): AlertSetupPart {
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
    listRules: async (projectId) =>
      (
        await db.query<RuleRow>(
          'SELECT * FROM alert_rules WHERE project_id = $1 AND removed_at IS NULL ORDER BY id',
          [projectId],
        )
      ).map(toRule),
    removeRule: (id) => db.transaction((c) => dropRule(c, id, now())),
  };
}
