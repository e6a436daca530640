import type Database from 'better-sqlite3';
import { detectDescriptionType } from '../core/detect.ts';
import { sha256Hex } from '../core/hash.ts';
import { groupCommit } from './batch.ts';
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
 * The acceptance decision (state, burst, quota, dedupe, variants, warnings). Reports of one
 * event-loop turn are decided one after another inside one IMMEDIATE transaction (see
 * batch.ts); reads are memoised for the batch and counters are written once at its end.
 * Burst counters live in memory: exact within this process (the only ingesting one per data dir),
 * forgotten on restart, which only ever makes the limit more lenient for the current minute.
 */
export function createIngest(db: Database.Database, config: IngestConfig) {
  const q = prepare(db);
  const variants = createVariantRecorder(db, config.variantCap);
  const warn = createQuotaWarnings(db);
  const burst = new Map<number, { minute: number; used: number }>();

  const rate = (projectId: number, plan: Plan, now: number): RateState => {
    const limit = config.plans[plan].burstPerMinute;
    const b = burst.get(projectId);
    const used = b && b.minute === Math.floor(now / MINUTE) ? b.used : 0;
    return { limit, remaining: Math.max(0, limit - used) };
  };

  // Read caches, kept across batches: cards, variants and usage are written only by this
  // process's ingest, so they stay exact; project states (changed by the admin CLI from another
  // connection) are dropped whenever `PRAGMA data_version` says someone else committed, on this
  // store's own admin writes (`invalidate`), and after a rolled-back batch.
  const states = new Map<number, string>();
  const active = new Map<number, number>();
  const totals = new Map<string, number>();
  const cards = new Map<number, CardRow>();
  const byTitle = new Map<string, CardRow | undefined>();
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  let seenVersion = dataVersion.get();
  const invalidate = () => {
    for (const m of [states, active, totals, cards, byTitle]) m.clear();
    variants.invalidate();
  };

  const begin = () => {
    const v = dataVersion.get();
    if (v !== seenVersion || cards.size + byTitle.size + totals.size > 100_000) {
      seenVersion = v;
      invalidate();
    }
    const dirtyCards = new Map<number, CardRow>();
    const usage = new Map<string, [number, number, number, number]>();

    const memo = <K, V>(m: Map<K, V>, k: K, load: () => V): V => {
      if (m.has(k)) return m.get(k) as V;
      const v = load();
      m.set(k, v);
      return v;
    };
    const flushCards = () => {
      for (const [id, row] of dirtyCards) {
        q.touchCard.run(
          row.occurrence_count,
          row.last_seen_at,
          row.tags,
          row.usage_day,
          row.usage_count,
          id,
        );
      }
      dirtyCards.clear();
    };

    const run = (key: AuthKey, report: TaskReport): IngestOutcome => {
      const now = config.now();
      const state = memo(states, key.projectId, () => q.state.get(key.projectId) as string);
      if (state === 'paused' || state === 'archived') {
        return { kind: 'dropped', reason: state, rate: rate(key.projectId, key.plan, now) };
      }
      const minute = Math.floor(now / MINUTE);
      const { burstPerMinute: limit, dailyEvents } = config.plans[key.plan];
      let b = burst.get(key.projectId);
      if (!b || b.minute !== minute) {
        b = { minute, used: 0 };
        burst.set(key.projectId, b);
      }
      if (b.used >= limit) {
        const retryAfter = Math.max(1, Math.ceil(((minute + 1) * MINUTE - now) / 1000));
        return { kind: 'rate_limited', rate: { limit, remaining: 0 }, retryAfter };
      }
      b.used += 1;
      const rateNow = { limit, remaining: limit - b.used };

      const day = Math.floor(now / DAY);
      const accKey = `${key.accountId}:${day}`;
      const projKey = `${accKey}:${key.projectId}`;
      const total = memo(totals, accKey, () => q.accountUsage.get(key.accountId, day) as number);
      if (total >= dailyEvents) return { kind: 'dropped', reason: 'quota', rate: rateNow };
      const mine = memo(
        totals,
        projKey,
        () => (q.projectUsage.get(key.accountId, day, key.projectId) as number) ?? 0,
      );
      const activeCount = memo(
        active,
        key.accountId,
        () => q.activeProjects.get(key.accountId) as number,
      );
      if (activeCount > 1 && mine >= Math.floor(dailyEvents * config.projectQuotaShare)) {
        return { kind: 'dropped', reason: 'quota', rate: rateNow };
      }
      totals.set(accKey, total + 1);
      totals.set(projKey, mine + 1);
      const u = usage.get(projKey);
      if (u) u[3] += 1;
      else usage.set(projKey, [key.accountId, day, key.projectId, 1]);

      const titleKey = `${key.projectId}\0${report.title}`;
      // One object per card within the batch, however it was found.
      const canonical = (r: CardRow | undefined) => r && (cards.get(r.id) ?? r);
      let row = canonical(
        memo(
          byTitle,
          titleKey,
          () => q.byTitle.get(key.projectId, report.title) as CardRow | undefined,
        ),
      );
      const blank = report.description === null || report.description.trim() === '';
      const descHash = blank ? null : sha256Hex(report.description!);
      if (!row && descHash) {
        row = canonical(
          q.byDescription.get(key.projectId, descHash, report.description) as CardRow | undefined,
        );
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
        const id = Number(
          q.insertCard.run(
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
          ).lastInsertRowid,
        );
        row = q.byId.get(id) as CardRow;
        row.occurrence_count = 1; // written with the other counters at batch end
        cards.set(id, row);
        byTitle.set(titleKey, row);
      }
      if (row.usage_day !== day) {
        row.usage_day = day;
        row.usage_count = 0;
      }
      row.usage_count += 1;
      dirtyCards.set(row.id, row);
      variants.record(row.id, report, now);

      let mailQueued = false;
      const mark = (pct: number) => Math.ceil((dailyEvents * pct) / 100);
      if ([75, 90, 100].some((p) => total < mark(p) && total + 1 >= mark(p))) {
        flushCards(); // the warning names the top cards of the day: counts must be on disk
        mailQueued = warn(key.accountId, day, total, total + 1, dailyEvents, iso(now));
      }
      const snapshot = { ...row }; // later reports in the batch move the live row on
      return {
        kind,
        get card() {
          return toCard(snapshot);
        },
        rate: rateNow,
        mailQueued,
      };
    };

    const finish = () => {
      for (const [acc, day, proj, n] of usage.values()) q.usageUp.run(acc, day, proj, n, n);
      flushCards();
      variants.flush();
    };
    return { run, finish };
  };

  return {
    ingest: groupCommit(db, begin, invalidate),
    invalidate,
    rateState: (projectId: number, plan: Plan) => rate(projectId, plan, config.now()),
  };
}

function prepare(db: Database.Database) {
  return {
    state: db.prepare('SELECT state FROM projects WHERE id = ?').pluck(),
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
      `INSERT INTO usage (account_id, day, project_id, count) VALUES (?, ?, ?, ?)
       ON CONFLICT (account_id, day, project_id) DO UPDATE SET count = count + ?`,
    ),
    byId: db.prepare('SELECT * FROM cards WHERE id = ?'),
    byTitle: db.prepare(
      'SELECT * FROM cards WHERE project_id = ? AND title = ? ORDER BY id LIMIT 1',
    ),
    byDescription: db.prepare(
      'SELECT * FROM cards WHERE project_id = ? AND description_hash = ? AND description = ? ORDER BY id LIMIT 1',
    ),
    insertCard: db.prepare(
      `INSERT INTO cards (project_id, title, description, description_hash, description_type, priority,
         severity, tags, status, occurrence_count, file_name, line_number, created_at, last_seen_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'todo', 0, ?, ?, ?, ?)`,
    ),
    touchCard: db.prepare(
      `UPDATE cards SET occurrence_count = ?, last_seen_at = ?, tags = ?, usage_day = ?,
         usage_count = ? WHERE id = ?`,
    ),
  };
}
