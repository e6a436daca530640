import type Database from 'better-sqlite3';
import type { NewAlertRule, NewWebhook } from '../../alerts/types.ts';
import type { AlertSetupPart } from '../alert-types.ts';
import {
  RULE_INSERT_COLUMNS,
  type RuleRow,
  ruleValues,
  toRule,
  toWebhook,
  type WebhookRow,
} from '../alert-rows.ts';
import type { WhenFree } from './writes-when-free.ts';

/**
 * Webhooks and rules on SQLite. Removing marks the row (the delivery log keeps its name), cancels
 * its pending deliveries, forgets its windows, and drops counts no frequency rule reads any more.
 */
export function createSqliteAlertSetup(
  db: Database.Database,
  write: WhenFree,
  now: () => number,
): AlertSetupPart {
  const q = {
    addWebhook: db.prepare(
      `INSERT INTO webhooks (project_id, name, url, format, secret_hash, created_at)
       VALUES (?, ?, ?, ?, ?, ?) RETURNING *`,
    ),
    webhook: db.prepare('SELECT * FROM webhooks WHERE id = ? AND removed_at IS NULL'),
    webhooks: db.prepare(
      'SELECT * FROM webhooks WHERE project_id = ? AND removed_at IS NULL ORDER BY id',
    ),
    dropWebhook: db.prepare(
      'UPDATE webhooks SET removed_at = ? WHERE id = ? AND removed_at IS NULL RETURNING id',
    ),
    rulesOfWebhook: db
      .prepare('SELECT id FROM alert_rules WHERE webhook_id = ? AND removed_at IS NULL')
      .pluck(),
    addRule: db.prepare(
      `INSERT INTO alert_rules (${RULE_INSERT_COLUMNS}) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?
       WHERE EXISTS (SELECT 1 FROM webhooks WHERE id = ? AND project_id = ? AND removed_at IS NULL)
       RETURNING *`,
    ),
    rule: db.prepare('SELECT * FROM alert_rules WHERE id = ? AND removed_at IS NULL'),
    rules: db.prepare(
      'SELECT * FROM alert_rules WHERE project_id = ? AND removed_at IS NULL ORDER BY id',
    ),
    dropRule: db.prepare(
      'UPDATE alert_rules SET removed_at = ? WHERE id = ? AND removed_at IS NULL RETURNING project_id',
    ),
    cancel: db.prepare(
      `UPDATE alert_deliveries SET state = 'cancelled', finished_at = ?, claimed_until = NULL
       WHERE rule_id = ? AND state = 'pending'`,
    ),
    unmark: db.prepare('DELETE FROM alert_marks WHERE rule_id = ?'),
    uncount: db.prepare(
      `DELETE FROM alert_counts WHERE project_id = ? AND NOT EXISTS (SELECT 1 FROM alert_rules
         WHERE project_id = ? AND event = 'frequency' AND removed_at IS NULL)`,
    ),
  };
  const removeRule = (ruleId: number, at: number) => {
    const dropped = q.dropRule.get(at, ruleId) as { project_id: number } | undefined;
    if (!dropped) return false;
    q.cancel.run(at, ruleId);
    q.unmark.run(ruleId);
    q.uncount.run(dropped.project_id, dropped.project_id);
    return true;
  };
  const removeWebhook = db.transaction((id: number, at: number) => {
    if (!q.dropWebhook.get(at, id)) return false;
    for (const ruleId of q.rulesOfWebhook.all(id) as number[]) removeRule(ruleId, at);
    return true;
  });
  return {
    addWebhook: (w: NewWebhook) =>
      write(() => {
        const row = q.addWebhook.get(w.projectId, w.name, w.url, w.format, w.secretHash, now());
        return toWebhook(row as WebhookRow);
      }),
    listWebhooks: (projectId) => (q.webhooks.all(projectId) as WebhookRow[]).map(toWebhook),
    removeWebhook: (id) => write(() => removeWebhook.immediate(id, now())),
    addRule: (rule: NewAlertRule) =>
      write(() => {
        const row = q.addRule.get(...ruleValues(rule, now()), rule.webhookId, rule.projectId);
        return row === undefined ? undefined : toRule(row as RuleRow);
      }),
    listRules: (projectId) => (q.rules.all(projectId) as RuleRow[]).map(toRule),
    removeRule: (id) => write(() => db.transaction(() => removeRule(id, now())).immediate()),
  };
}
