import type { AlertRule, AttemptRecord, NewAlertRule, NewWebhook } from '../../alerts/types.ts';
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
import { createSqlitePlan } from './alert-plan.ts';
import { openConnection } from './connection.ts';
import { writesWhenFree } from './writes-when-free.ts';

const DUE_SQL = `SELECT d.id, d.event, d.body, d.attempts, w.url, w.format, w.secret_hash
  FROM alert_deliveries d JOIN webhooks w ON w.id = d.webhook_id WHERE d.id = ?`;

/**
 * Alerts on SQLite, on a connection of its own to the service's file (as the board's): its writes
 * wait for another process's lock (the CLI) off the event loop; the planning turn is one
 * transaction. Only the serving process delivers from a data dir, so a claim is exclusive.
 */
export function openSqliteAlertStore(opts: { dataDir: string; now?: () => number }): AlertStore {
  const now = opts.now ?? Date.now;
  const db = openConnection(opts.dataDir, 'NORMAL');
  db.pragma('wal_autocheckpoint = 0'); // the ingesting connection's checkpointer copies the WAL
  const write = writesWhenFree(db);
  const planning = createSqlitePlan(db);
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
    claim: db
      .prepare(
        `UPDATE alert_deliveries SET claimed_until = ? WHERE id IN (SELECT id FROM alert_deliveries
           WHERE state = 'pending' AND next_at <= ? AND (claimed_until IS NULL OR claimed_until < ?)
           ORDER BY next_at, id LIMIT ?) RETURNING id`,
      )
      .pluck(),
    due: db.prepare(DUE_SQL),
    record: db.prepare(
      `UPDATE alert_deliveries SET attempts = attempts + 1, state = ?, last_status = ?,
         last_error = ?, next_at = ?, finished_at = ?, claimed_until = NULL
       WHERE id = ? AND state = 'pending'`,
    ),
    release: db.prepare('UPDATE alert_deliveries SET claimed_until = NULL WHERE id = ?'),
    addTest: db.prepare(
      `INSERT INTO alert_deliveries (project_id, rule_id, webhook_id, card_id, event, body,
         created_at, next_at, claimed_until) VALUES (?, ?, ?, NULL, 'test', '', ?, ?, ?)`,
    ),
    body: db.prepare('UPDATE alert_deliveries SET body = ? WHERE id = ?'),
    project: db.prepare('SELECT name FROM projects WHERE id = ?').pluck(),
    log: db.prepare(
      LOG_SQL.replace('$PROJECT', '?').replace('$BEFORE', '?').replace('$LIMIT', '?'),
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
  const addTest = db.transaction(
    (
      ruleId: number,
      at: number,
      claimMs: number,
      body: Parameters<AlertStore['addTestDelivery']>[3],
    ) => {
      const row = q.rule.get(ruleId) as RuleRow | undefined;
      const hook = row && (q.webhook.get(row.webhook_id) as WebhookRow | undefined);
      if (!row || !hook) return undefined;
      const rule = toRule(row);
      const id = Number(
        q.addTest.run(rule.projectId, rule.id, hook.id, at, at, at + claimMs).lastInsertRowid,
      );
      q.body.run(body(id, rule, q.project.get(rule.projectId) as string, hook.format), id);
      return toDue(q.due.get(id) as DueRow);
    },
  );
  const claim = db.transaction((at: number, limit: number, claimMs: number) =>
    (q.claim.all(at + claimMs, at, at, limit) as number[]).map((id) =>
      toDue(q.due.get(id) as DueRow),
    ),
  );

  return {
    addWebhook: (w: NewWebhook) =>
      write(() =>
        toWebhook(
          q.addWebhook.get(w.projectId, w.name, w.url, w.format, w.secretHash, now()) as WebhookRow,
        ),
      ),
    getWebhook(id) {
      const row = q.webhook.get(id) as WebhookRow | undefined;
      return row && { ...toWebhook(row), secretHash: row.secret_hash };
    },
    listWebhooks: (projectId) => (q.webhooks.all(projectId) as WebhookRow[]).map(toWebhook),
    removeWebhook: (id) => write(() => removeWebhook.immediate(id, now())),
    addRule: (rule: NewAlertRule) =>
      write(() => {
        const row = q.addRule.get(...ruleValues(rule, now()), rule.webhookId, rule.projectId);
        return row === undefined ? undefined : toRule(row as RuleRow);
      }),
    getRule(id): AlertRule | undefined {
      const row = q.rule.get(id) as RuleRow | undefined;
      return row && toRule(row);
    },
    listRules: (projectId) => (q.rules.all(projectId) as RuleRow[]).map(toRule),
    removeRule: (id) => write(() => db.transaction(() => removeRule(id, now())).immediate()),
    planAlerts: async (at, planner, opts) =>
      planning.idle(opts) ? 0 : write(() => planning.plan(at, planner, opts)),
    claimDeliveries: (at, limit, claimMs) => write(() => claim.immediate(at, limit, claimMs)),
    recordAttempt: (id, a: AttemptRecord) =>
      write(() => {
        const c = attemptColumns(a);
        q.record.run(c.state, c.status, c.error, c.nextAt, c.finishedAt, id);
      }),
    releaseDelivery: (id) =>
      write(() => {
        q.release.run(id);
      }),
    addTestDelivery: (ruleId, at, claimMs, body) =>
      write(() => addTest.immediate(ruleId, at, claimMs, body)),
    listDeliveries: (projectId, page) =>
      (q.log.all(projectId, page.before ?? Number.MAX_SAFE_INTEGER, page.limit) as LogRow[]).map(
        toLogRow,
      ),
    close: () => {
      db.close();
    },
  };
}
