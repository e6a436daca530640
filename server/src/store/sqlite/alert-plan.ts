import type Database from 'better-sqlite3';
import type {
  AlertCardRow,
  AlertPlanner,
  AlertRule,
  AlertWork,
  CountedCard,
  Firing,
} from '../../alerts/types.ts';
import type { PlanOptions } from '../alert-types.ts';
import {
  ALERT_CARD_COLUMNS,
  type NoticeRow,
  type RuleRow,
  type WebhookRow,
  toNotice,
  toRule,
  toWebhook,
} from '../alert-rows.ts';

const MINUTE = 60_000;

/** The statements of a planning turn on SQLite. */
function prepareAlertPlan(db: Database.Database) {
  return {
    anything: db
      .prepare(
        `SELECT EXISTS (SELECT 1 FROM alert_queue) OR (? AND EXISTS (SELECT 1 FROM alert_counts))`,
      )
      .pluck(),
    notices: db.prepare('SELECT * FROM alert_queue ORDER BY id LIMIT ?'),
    forget: db.prepare('DELETE FROM alert_queue WHERE id = ?'),
    frequencyRules: db.prepare(
      `SELECT * FROM alert_rules WHERE event = 'frequency' AND removed_at IS NULL ORDER BY id`,
    ),
    rulesOf: db.prepare('SELECT * FROM alert_rules WHERE project_id = ? AND removed_at IS NULL'),
    counted: db.prepare(
      `SELECT a.card_id AS cardId, SUM(a.count) AS count,
         CASE WHEN MIN(a.environment) = MAX(a.environment) AND MIN(a.environment) <> ''
           THEN MIN(a.environment) END AS environment
       FROM alert_counts a
       WHERE a.project_id = ? AND a.minute > ?
         AND (? IS NULL OR a.environment IN (SELECT value FROM json_each(?)))
         AND NOT EXISTS (SELECT 1 FROM alert_marks m WHERE m.rule_id = ? AND m.card_id = a.card_id
           AND m.at > ?)
       GROUP BY a.card_id HAVING SUM(a.count) > ?`,
    ),
    prune: db.prepare('DELETE FROM alert_counts WHERE project_id = ? AND minute <= ?'),
    card: db.prepare(`SELECT ${ALERT_CARD_COLUMNS} FROM cards WHERE id = ?`),
    project: db.prepare('SELECT name FROM projects WHERE id = ?').pluck(),
    webhook: db.prepare('SELECT * FROM webhooks WHERE id = ?'),
    mark: db.prepare(
      `INSERT INTO alert_marks (rule_id, card_id, at) VALUES (?, ?, ?)
       ON CONFLICT (rule_id, card_id) DO UPDATE SET at = excluded.at WHERE alert_marks.at <= ?
       RETURNING at`,
    ),
    deliver: db.prepare(
      `INSERT INTO alert_deliveries (project_id, rule_id, webhook_id, card_id, event, body,
         created_at, next_at) VALUES (?, ?, ?, ?, ?, '', ?, ?)`,
    ),
    body: db.prepare('UPDATE alert_deliveries SET body = ? WHERE id = ?'),
  };
}

/**
 * The planning turn on SQLite (see `AlertStore.planAlerts`): one IMMEDIATE transaction reads the
 * queued notices, the frequency rules' counts over their windows (cards alerted within the window
 * left out), the cards, rules, projects and webhooks they name; the planner decides; each firing
 * moves its rule's mark for the card only if the window has passed (`RETURNING` says whether it
 * did) and then gets its delivery. Only this process ingests into the file, but the CLI may add
 * rules meanwhile: the transaction holds the write lock throughout.
 */
export function createSqlitePlan(db: Database.Database) {
  const q = prepareAlertPlan(db);

  /** Each frequency rule's cards over its threshold in its window; old counts pruned. */
  const countFrequencies = (rules: AlertRule[], now: number): CountedCard[] => {
    const minute = Math.floor(now / MINUTE);
    const longest = new Map<number, number>();
    const counted: CountedCard[] = [];
    for (const rule of rules) {
      const envs = rule.environments && JSON.stringify(rule.environments);
      const rows = q.counted.all(
        rule.projectId,
        minute - rule.windowMinutes,
        envs,
        envs,
        rule.id,
        now - rule.windowMinutes * MINUTE,
        rule.threshold,
      ) as Omit<CountedCard, 'ruleId'>[];
      for (const row of rows) counted.push({ ...row, ruleId: rule.id });
      longest.set(rule.projectId, Math.max(longest.get(rule.projectId) ?? 0, rule.windowMinutes));
    }
    for (const [projectId, window] of longest) q.prune.run(projectId, minute - window);
    return counted;
  };

  const read = (now: number, opts: PlanOptions): AlertWork => {
    const notices = (q.notices.all(opts.notices) as NoticeRow[]).map(toNotice);
    const frequency = opts.frequency ? (q.frequencyRules.all() as RuleRow[]).map(toRule) : [];
    const counted = countFrequencies(frequency, now);
    const projectIds = new Set([
      ...notices.map((n) => n.projectId),
      ...frequency.map((r) => r.projectId),
    ]);
    const rules = [...projectIds].flatMap((p) => (q.rulesOf.all(p) as RuleRow[]).map(toRule));
    const cards = new Map<number, AlertCardRow>();
    for (const id of new Set([...notices.map((n) => n.cardId), ...counted.map((c) => c.cardId)])) {
      const card = q.card.get(id) as AlertCardRow | undefined;
      if (card) cards.set(id, card);
    }
    const projects = new Map([...projectIds].map((p) => [p, q.project.get(p) as string]));
    const webhooks = new Map(
      [...new Set(rules.map((r) => r.webhookId))].map((id) => [
        id,
        toWebhook(q.webhook.get(id) as WebhookRow),
      ]),
    );
    return { notices, rules, counted, cards, projects, webhooks };
  };

  const raise = (firing: Firing, work: AlertWork, planner: AlertPlanner, now: number): boolean => {
    const { rule } = firing;
    if (!q.mark.get(rule.id, firing.cardId, now, now - rule.windowMinutes * MINUTE)) return false;
    const id = Number(
      q.deliver.run(rule.projectId, rule.id, rule.webhookId, firing.cardId, firing.event, now, now)
        .lastInsertRowid,
    );
    q.body.run(planner.body(firing, id, work, now), id);
    return true;
  };

  const plan = db.transaction((now: number, planner: AlertPlanner, opts: PlanOptions) => {
    const work = read(now, opts);
    let raised = 0;
    for (const firing of planner.plan(work)) if (raise(firing, work, planner, now)) raised++;
    for (const notice of work.notices) q.forget.run(notice.id);
    return { raised, more: work.notices.length === opts.notices };
  });

  return {
    /** Nothing queued and nothing counted: no transaction, no write lock. */
    idle: (opts: PlanOptions) => !q.anything.get(opts.frequency ? 1 : 0),
    plan: (now: number, planner: AlertPlanner, opts: PlanOptions) =>
      plan.immediate(now, planner, opts),
  };
}
