import type Database from 'better-sqlite3';
import { openDatabaseFile } from './database-file.ts';
import {
  type AccountTotals,
  type BoardVariantRow,
  CARD_COUNT,
  idKeyset,
  likeText,
  pageOf,
  PRIORITY_RANK,
  SEVERITY_RANK,
  SUMMARY_COLUMNS,
  type SummaryRow,
  toBoardCard,
  toBoardVariant,
  toSummary,
} from './board-rows.ts';
import type {
  BoardAccount,
  BoardProject,
  BoardProjectPage,
  BoardStore,
  CardQuery,
  CardSort,
  IdPage,
} from './board-types.ts';
import { migrate } from './migrations.ts';
import type { CardRow } from './rows.ts';
import { createSqliteSessions } from './sqlite-sessions.ts';
import { createSqliteTriage } from './sqlite-triage.ts';

// The board's reads over the same SQLite file as the ingestion store, on a connection of its own
// (WAL: reads see committed data and never block ingestion for longer than one statement).

/** Columns of each sort's keyset, each served by an index of migration 3 (title: cards_by_title). */
const KEY_COLUMNS: Record<CardSort, string[]> = {
  last_seen: ['last_seen_at', 'id'],
  first_seen: ['created_at', 'id'],
  count: ['occurrence_count', 'id'],
  severity: ['severity_rank', 'id'],
  priority: ['priority_rank', 'id'],
  title: ['title', 'id'],
};

export function openSqliteBoardStore(opts: { dataDir: string }): BoardStore {
  const db = openDatabaseFile(opts.dataDir);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  migrate(db);

  const statements = new Map<string, Database.Statement>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  const projectSql = `SELECT p.id, p.account_id AS accountId, p.name, p.state,
      ${CARD_COUNT} AS cards,
      COALESCE((SELECT count FROM usage u WHERE u.account_id = p.account_id AND u.day = ?
        AND u.project_id = p.id), 0) AS eventsToday
    FROM projects p`;
  // The accounts pages: a page of an account's projects by id.
  const listedProjectSql = `SELECT p.id, p.account_id AS accountId, p.name, p.state,
      ${CARD_COUNT} AS cards,
      COALESCE((SELECT count FROM usage u WHERE u.account_id = p.account_id AND u.day = ?
        AND u.project_id = p.id), 0) AS eventsToday
    FROM projects p WHERE p.account_id = ?`;
  const projectsOf = (accountId: number, day: number, page: IdPage) => {
    const { op, order, from } = idKeyset(page);
    const rows = prepared(
      `${listedProjectSql} AND p.id ${op} ? ORDER BY p.id ${order} LIMIT ?`,
    ).all(day, accountId, from, page.limit + 1) as BoardProject[];
    return pageOf(rows, page);
  };
  const totalsOf = (accountId: number, day: number) =>
    prepared(
      `SELECT COUNT(*) AS projectCount, COALESCE(SUM(state = 'active'), 0) AS activeProjects,
        (SELECT COALESCE(SUM(count), 0) FROM usage WHERE account_id = ? AND day = ?) AS eventsToday
       FROM projects WHERE account_id = ?`,
    ).get(accountId, day, accountId) as AccountTotals;
  const accountRow = (id: number) =>
    prepared('SELECT id, name, plan FROM accounts WHERE id = ?').get(id) as
      Pick<BoardAccount, 'id' | 'name' | 'plan'> | undefined;
  const triage = createSqliteTriage(db);
  const variantSql = `SELECT id, title, substr(description, 1, ?) AS description,
      length(description) AS description_length, file_name, line_number, count, first_seen_at,
      last_seen_at, aggregate FROM variants WHERE card_id = ?`;

  return {
    ...createSqliteSessions(db),
    overview(day, page) {
      const { op, order, from } = idKeyset(page);
      const accounts = pageOf(
        prepared(
          `SELECT id, name, plan FROM accounts WHERE id ${op} ? ORDER BY id ${order} LIMIT ?`,
        ).all(from, page.limit + 1) as Pick<BoardAccount, 'id' | 'name' | 'plan'>[],
        page,
      );
      return {
        more: accounts.more,
        rows: accounts.rows.map((a) => ({
          ...a,
          ...totalsOf(a.id, day),
          projects: projectsOf(a.id, day, { limit: page.projectsPerAccount }).rows,
        })),
      };
    },
    getAccount(id, day, page) {
      const account = accountRow(id);
      if (!account) return undefined;
      const projects = projectsOf(id, day, page);
      return { ...account, ...totalsOf(id, day), projects: projects.rows, more: projects.more };
    },
    getProject(id, day) {
      const project = prepared(
        `SELECT x.*, a.name AS accountName, a.plan FROM (${projectSql} WHERE p.id = ?) x
         JOIN accounts a ON a.id = x.accountId`,
      ).get(day, id) as Omit<BoardProjectPage, 'statusCounts'> | undefined;
      return project && { ...project, statusCounts: triage.statusCounts(id) };
    },
    listCards(projectId, query) {
      const { sql, params } = cardsSql(projectId, query);
      const rows = prepared(sql).all(...params) as SummaryRow[];
      const more = rows.length > query.limit;
      const page = rows.slice(0, query.limit);
      if (query.before) page.reverse();
      return {
        more,
        cards: page.map((r) =>
          toSummary(
            r,
            KEY_COLUMNS[query.sort].map((c) => r[c as keyof SummaryRow] as string | number),
          ),
        ),
      };
    },
    getCard(projectId, cardId, day) {
      const r = prepared('SELECT * FROM cards WHERE id = ? AND project_id = ?').get(
        cardId,
        projectId,
      ) as CardRow | undefined;
      return r && toBoardCard(r, day);
    },
    listVariants: (cardId, bodyChars) =>
      (
        prepared(`${variantSql} ORDER BY aggregate, last_seen_at DESC, id DESC`).all(
          bodyChars,
          cardId,
        ) as BoardVariantRow[]
      ).map(toBoardVariant),
    getVariant(cardId, variantId) {
      const r = prepared(`${variantSql} AND id = ?`).get(1 << 30, cardId, variantId);
      return r === undefined ? undefined : toBoardVariant(r as BoardVariantRow);
    },
    cardHours(cardId, fromHour, toHour) {
      const counts = new Array<number>(Math.max(0, toHour - fromHour + 1)).fill(0);
      const rows = prepared(
        'SELECT hour, count FROM card_hours WHERE card_id = ? AND hour BETWEEN ? AND ?',
      ).all(cardId, fromHour, toHour) as { hour: number; count: number }[];
      for (const r of rows) counts[r.hour - fromHour] = r.count;
      return counts;
    },
    setCardStatus: triage.setCardStatus,
    cardHistory: triage.cardHistory,
    close: () => {
      db.close();
    },
  };
}

/** One keyset page: filters, then the sort key compared as a row value, so an index serves it. */
export function cardsSql(projectId: number, q: CardQuery) {
  const columns = KEY_COLUMNS[q.sort];
  const where = ['project_id = ?'];
  const params: (string | number)[] = [projectId];
  if (q.statuses !== undefined) {
    where.push(`status IN (${q.statuses.map(() => '?').join(', ') || 'NULL'})`);
    params.push(...q.statuses);
  }
  if (q.severity !== undefined) {
    where.push('severity_rank = ?');
    params.push(SEVERITY_RANK[q.severity] ?? -1);
  }
  if (q.priority !== undefined) {
    where.push('priority_rank = ?');
    params.push(PRIORITY_RANK[q.priority] ?? -1);
  }
  if (q.tag !== undefined) {
    // instr() on the stored JSON is a cheap pre-filter; json_each() confirms an exact element.
    where.push('instr(tags, ?) > 0 AND EXISTS (SELECT 1 FROM json_each(tags) WHERE value = ?)');
    params.push(JSON.stringify(q.tag), q.tag);
  }
  if (q.text !== undefined) {
    where.push("title LIKE ? ESCAPE '\\'");
    params.push(likeText(q.text));
  }
  const boundary = q.after ?? q.before;
  const backwards = q.before !== undefined;
  const descending = (q.dir === 'desc') !== backwards;
  if (boundary) {
    if (boundary.length !== columns.length)
      throw new RangeError('The page key does not fit the sort.');
    where.push(
      `(${columns.join(', ')}) ${descending ? '<' : '>'} (${columns.map(() => '?').join(', ')})`,
    );
    params.push(...boundary);
  }
  const order = columns.map((c) => `${c} ${descending ? 'DESC' : 'ASC'}`).join(', ');
  params.push(q.limit + 1);
  return {
    sql: `SELECT ${SUMMARY_COLUMNS} FROM cards WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ?`,
    params,
  };
}
