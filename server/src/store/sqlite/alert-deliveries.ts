import type Database from 'better-sqlite3';
import type { AttemptRecord } from '../../alerts/types.ts';
import type { AlertStore, DeliveriesPart } from '../alert-types.ts';
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
import type { WhenFree } from './writes-when-free.ts';

const DUE_SQL = `SELECT d.id, d.event, d.body, d.attempts, w.url, w.format, w.secret_hash
  FROM alert_deliveries d JOIN webhooks w ON w.id = d.webhook_id WHERE d.id = ?`;

/**
 * Deliveries on SQLite: claims of due ones (`claimed_until`, so a test the CLI sends meanwhile is
 * not taken twice), attempts, test deliveries and the log. Only the serving process delivers from
 * a data dir.
 */
export function createSqliteDeliveries(db: Database.Database, write: WhenFree): DeliveriesPart {
  const q = {
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
    rule: db.prepare('SELECT * FROM alert_rules WHERE id = ? AND removed_at IS NULL'),
    webhook: db.prepare('SELECT * FROM webhooks WHERE id = ? AND removed_at IS NULL'),
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
  };
}
