import type Database from 'better-sqlite3';
import { detectDescriptionType } from '../core/detect.ts';
import { sha256Hex } from '../core/hash.ts';
import { iso, toCard, type CardRow } from './rows.ts';
import type { AuthKey, IngestOutcome, Plan, PlanLimits, RateState, TaskReport } from './types.ts';
import { createVariantRecorder } from './variants.ts';
import { createQuotaWarnings } from './warnings.ts';

export interface IngestConfig {
  now: () => number;
  plans: Record<Plan, PlanLimits>;
  variantCap: number;
  /** Share of the daily pool one project may use while the account has several active projects. */
  projectQuotaShare: number;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * The whole acceptance decision (state, burst, quota, dedupe, variants, warnings) as one
 * IMMEDIATE transaction: counting stays exact under concurrency and across processes, and the
 * caller answers only after the commit.
 */
export function createIngest(db: Database.Database, config: IngestConfig) {
  const q = {
    state: db.prepare('SELECT state FROM projects WHERE id = ?').pluck(),
    burst: db.prepare('SELECT count FROM burst WHERE project_id = ? AND minute = ?').pluck(),
    burstUp: db.prepare(
      `INSERT INTO burst (project_id, minute, count) VALUES (?, ?, 1)
       ON CONFLICT (project_id, minute) DO UPDATE SET count = count + 1`,
    ),
    burstPrune: db.prepare('DELETE FROM burst WHERE project_id = ? AND minute < ?'),
    accountUsage: db
      .prepare('SELECT COALESCE(SUM(count), 0) FROM usage WHERE account_id = ? AND day = ?')
      .pluck(),
    projectUsage: db
      .prepare('SELECT count FROM usage WHERE account_id = ? AND day = ? AND project_id = ?')
      .pluck(),
    activeProjects: db
      .prepare("SELECT COUNT(*) FROM projects WHERE account_id = ? AND state = 'active'")
      .pluck(),
    usageUp: db.prepare(
      `INSERT INTO usage (account_id, day, project_id, count) VALUES (?, ?, ?, 1)
       ON CONFLICT (account_id, day, project_id) DO UPDATE SET count = count + 1`,
    ),
    byTitle: db.prepare(
      'SELECT * FROM cards WHERE project_id = ? AND title = ? ORDER BY id LIMIT 1',
    ),
    byDescription: db.prepare(
      'SELECT * FROM cards WHERE project_id = ? AND description_hash = ? AND description = ? ORDER BY id LIMIT 1',
    ),
    insertCard: db.prepare(
      `INSERT INTO cards (project_id, title, description, description_hash, description_type, priority,
         severity, tags, status, occurrence_count, file_name, line_number, created_at, last_seen_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'todo', 1, ?, ?, ?, ?)`,
    ),
    touchCard: db.prepare(
      'UPDATE cards SET occurrence_count = occurrence_count + 1, last_seen_at = ?, tags = ? WHERE id = ?',
    ),
    cardUsageUp: db.prepare(
      `INSERT INTO card_usage (card_id, day, count) VALUES (?, ?, 1)
       ON CONFLICT (card_id, day) DO UPDATE SET count = count + 1`,
    ),
  };
  const recordVariant = createVariantRecorder(db, config.variantCap);
  const warn = createQuotaWarnings(db);

  const rate = (projectId: number, plan: Plan, now: number): RateState => {
    const limit = config.plans[plan].burstPerMinute;
    const used = (q.burst.get(projectId, Math.floor(now / MINUTE)) as number | undefined) ?? 0;
    return { limit, remaining: Math.max(0, limit - used) };
  };

  const run = db.transaction((key: AuthKey, report: TaskReport, now: number): IngestOutcome => {
    const state = q.state.get(key.projectId) as string;
    if (state === 'paused' || state === 'archived') {
      return { kind: 'dropped', reason: state, rate: rate(key.projectId, key.plan, now) };
    }
    const minute = Math.floor(now / MINUTE);
    const { burstPerMinute: limit, dailyEvents } = config.plans[key.plan];
    const used = (q.burst.get(key.projectId, minute) as number | undefined) ?? 0;
    if (used >= limit) {
      const retryAfter = Math.max(1, Math.ceil(((minute + 1) * MINUTE - now) / 1000));
      return { kind: 'rate_limited', rate: { limit, remaining: 0 }, retryAfter };
    }
    if (used === 0) q.burstPrune.run(key.projectId, minute);
    q.burstUp.run(key.projectId, minute);
    const burst = { limit, remaining: limit - used - 1 };

    const day = Math.floor(now / DAY);
    const total = q.accountUsage.get(key.accountId, day) as number;
    if (total >= dailyEvents) return { kind: 'dropped', reason: 'quota', rate: burst };
    if ((q.activeProjects.get(key.accountId) as number) > 1) {
      const mine = (q.projectUsage.get(key.accountId, day, key.projectId) as number) ?? 0;
      if (mine >= Math.floor(dailyEvents * config.projectQuotaShare)) {
        return { kind: 'dropped', reason: 'quota', rate: burst };
      }
    }
    q.usageUp.run(key.accountId, day, key.projectId);

    let row = q.byTitle.get(key.projectId, report.title) as CardRow | undefined;
    const blank = report.description === null || report.description.trim() === '';
    const descHash = blank ? null : sha256Hex(report.description!);
    if (!row && descHash) {
      row = q.byDescription.get(key.projectId, descHash, report.description) as CardRow | undefined;
    }
    let kind: 'created' | 'deduplicated';
    let cardId: number;
    if (row) {
      kind = 'deduplicated';
      cardId = row.id;
      const tags = JSON.parse(row.tags) as string[];
      for (const t of report.tags) if (!tags.includes(t)) tags.push(t);
      row.tags = JSON.stringify(tags);
      row.occurrence_count += 1;
      row.last_seen_at = now;
      q.touchCard.run(now, row.tags, cardId);
    } else {
      kind = 'created';
      const info = q.insertCard.run(
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
        now,
      );
      cardId = Number(info.lastInsertRowid);
      row = q.byTitle.get(key.projectId, report.title) as CardRow;
    }
    q.cardUsageUp.run(cardId, day);
    recordVariant(cardId, report, now);
    const mailQueued = warn(key.accountId, day, total, total + 1, dailyEvents, iso(now));
    return { kind, card: toCard(row), rate: burst, mailQueued };
  });

  return {
    ingest: (key: AuthKey, report: TaskReport) => run.immediate(key, report, config.now()),
    rateState: (projectId: number, plan: Plan) => rate(projectId, plan, config.now()),
  };
}
