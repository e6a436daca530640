import type pg from 'pg';
import type {
  AlertCardRow,
  AlertPlanner,
  AlertRule,
  AlertWork,
  CountedCard,
  Firing,
} from '../../alerts/types.ts';
import type { PlanOptions, PlanResult } from '../alert-types.ts';
import {
  ALERT_CARD_COLUMNS,
  type NoticeRow,
  type RuleRow,
  type WebhookRow,
  toNotice,
  toRule,
  toWebhook,
} from '../alert-rows.ts';
import type { PgDeadlineDb } from './pool.ts';

const MINUTE = 60_000;

const COUNTED_SQL = `SELECT a.card_id AS "cardId", SUM(a.count)::integer AS count,
    CASE WHEN MIN(a.environment) = MAX(a.environment) AND MIN(a.environment) <> ''
      THEN MIN(a.environment) END AS environment
  FROM alert_counts a
  WHERE a.project_id = $1 AND a.minute > $2
    AND ($3::jsonb IS NULL OR a.environment IN (SELECT jsonb_array_elements_text($3::jsonb)))
    AND NOT EXISTS (SELECT 1 FROM alert_marks m WHERE m.rule_id = $4 AND m.card_id = a.card_id
      AND m.at > $5)
  GROUP BY a.card_id HAVING SUM(a.count) > $6`;

/** Each frequency rule's cards over its threshold in its window; old counts pruned. */
async function countFrequencies(
  c: pg.PoolClient,
  rules: AlertRule[],
  now: number,
): Promise<CountedCard[]> {
  const minute = Math.floor(now / MINUTE);
  const longest = new Map<number, number>();
  const counted: CountedCard[] = [];
  for (const rule of rules) {
    const { rows } = await c.query<Omit<CountedCard, 'ruleId'>>(COUNTED_SQL, [
      rule.projectId,
      minute - rule.windowMinutes,
      rule.environments && JSON.stringify(rule.environments),
      rule.id,
      now - rule.windowMinutes * MINUTE,
      rule.threshold,
    ]);
    for (const row of rows) counted.push({ ...row, ruleId: rule.id });
    longest.set(rule.projectId, Math.max(longest.get(rule.projectId) ?? 0, rule.windowMinutes));
  }
  for (const [projectId, window] of longest) {
    await c.query('DELETE FROM alert_counts WHERE project_id = $1 AND minute <= $2', [
      projectId,
      minute - window,
    ]);
  }
  return counted;
}

/**
 * What a planning turn decides on. Notices are taken `FOR UPDATE SKIP LOCKED`: an instance's turn
 * sees only notices no other turn holds, so each is planned once.
 */
async function read(c: pg.PoolClient, now: number, opts: PlanOptions): Promise<AlertWork> {
  const taken = await c.query<NoticeRow>(
    'SELECT * FROM alert_queue ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED',
    [opts.notices],
  );
  const notices = taken.rows.map(toNotice);
  const frequency = opts.frequency
    ? (
        await c.query<RuleRow>(
          `SELECT * FROM alert_rules WHERE event = 'frequency' AND removed_at IS NULL ORDER BY id`,
        )
      ).rows.map(toRule)
    : [];
  const counted = await countFrequencies(c, frequency, now);
  const projectIds = [
    ...new Set([...notices.map((n) => n.projectId), ...frequency.map((r) => r.projectId)]),
  ];
  const rules = (
    await c.query<RuleRow>(
      'SELECT * FROM alert_rules WHERE project_id = ANY($1) AND removed_at IS NULL',
      [projectIds],
    )
  ).rows.map(toRule);
  const cardIds = [...new Set([...notices.map((n) => n.cardId), ...counted.map((x) => x.cardId)])];
  const cards = (
    await c.query<AlertCardRow>(`SELECT ${ALERT_CARD_COLUMNS} FROM cards WHERE id = ANY($1)`, [
      cardIds,
    ])
  ).rows;
  const projects = (
    await c.query<{ id: number; name: string }>(
      'SELECT id, name FROM projects WHERE id = ANY($1)',
      [projectIds],
    )
  ).rows;
  const webhooks = (
    await c.query<WebhookRow>('SELECT * FROM webhooks WHERE id = ANY($1)', [
      [...new Set(rules.map((r) => r.webhookId))],
    ])
  ).rows;
  return {
    notices,
    rules,
    counted,
    cards: new Map(cards.map((card) => [card.id, card])),
    projects: new Map(projects.map((p) => [p.id, p.name])),
    webhooks: new Map(webhooks.map((w) => [w.id, toWebhook(w)])),
  };
}

/**
 * A firing's delivery, if its rule has not alerted for the card within its window: the mark is
 * moved by one upsert whose `WHERE` PostgreSQL checks under the row's lock, so two instances that
 * both counted the card cannot both pass.
 */
async function raise(
  c: pg.PoolClient,
  firing: Firing,
  work: AlertWork,
  planner: AlertPlanner,
  now: number,
): Promise<boolean> {
  const { rule } = firing;
  const marked = await c.query(
    `INSERT INTO alert_marks (rule_id, card_id, at) VALUES ($1, $2, $3)
     ON CONFLICT (rule_id, card_id) DO UPDATE SET at = excluded.at WHERE alert_marks.at <= $4
     RETURNING at`,
    [rule.id, firing.cardId, now, now - rule.windowMinutes * MINUTE],
  );
  if (marked.rowCount === 0) return false;
  const { rows } = await c.query<{ id: number }>(
    `INSERT INTO alert_deliveries (project_id, rule_id, webhook_id, card_id, event, body,
       created_at, next_at) VALUES ($1, $2, $3, $4, $5, '', $6, $6) RETURNING id`,
    [rule.projectId, rule.id, rule.webhookId, firing.cardId, firing.event, now],
  );
  const id = rows[0]!.id;
  await c.query('UPDATE alert_deliveries SET body = $1 WHERE id = $2', [
    planner.body(firing, id, work, now),
    id,
  ]);
  return true;
}

/** The planning turn on PostgreSQL (see `AlertStore.planAlerts`), within the store's deadline. */
export function createPgPlan(db: PgDeadlineDb) {
  return async (now: number, planner: AlertPlanner, opts: PlanOptions): Promise<PlanResult> => {
    const [busy] = await db.query<{ busy: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM alert_queue)
         OR ($1 AND EXISTS (SELECT 1 FROM alert_counts)) AS busy`,
      [opts.frequency],
    );
    if (!busy?.busy) return { raised: 0, more: false };
    return db.transaction(async (c) => {
      const work = await read(c, now, opts);
      let raised = 0;
      for (const firing of planner.plan(work)) {
        if (await raise(c, firing, work, planner, now)) raised++;
      }
      await c.query('DELETE FROM alert_queue WHERE id = ANY($1)', [work.notices.map((n) => n.id)]);
      return { raised, more: work.notices.length === opts.notices };
    });
  };
}
