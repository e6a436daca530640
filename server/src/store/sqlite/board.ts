import type Database from 'better-sqlite3';
import { openDatabaseFile } from './database-file.ts';
import {
  type AccountTotals,
  type BoardVariantRow,
  CARD_COUNT,
  idKeyset,
  pageOf,
  type SummaryRow,
  toBoardCard,
  toBoardVariant,
} from '../board-rows.ts';
import { listCardPage, type ScanLimits } from '../board-scan.ts';
import type {
  BoardAccount,
  BoardProject,
  BoardProjectPage,
  BoardStore,
  IdPage,
  SortKey,
} from '../board-types.ts';
import { type CardsDialect, cardsSql } from '../cards-sql.ts';
import { migrate } from './migrations.ts';
import type { CardRow } from '../rows.ts';
import { createSqliteEnvReads } from './board-envs.ts';
import { createSqliteSessions } from './sessions.ts';
import { createSqliteTriage } from './triage.ts';
import { writesWhenFree } from './writes-when-free.ts';

// The board's reads over the same SQLite file as the ingestion store, on a connection of its own
// (WAL: reads see committed data, never wait for a writer, and never block ingestion for longer
// than one statement); its few writes wait for another process's lock off the event loop.

/** The cards page's SQL on SQLite: `?` placeholders, a compound select merged in key order. */
export const SQLITE_CARDS: CardsDialect = {
  placeholder: () => '?',
  keyColumn: (field) => field,
  // Titles sort by deduplication's index (project_id, title): no second index of random titles.
  statusLeads: (sort) => sort !== 'title',
  bind: (value) => value,
  // instr() on the stored JSON (written by JSON.stringify) is a cheap pre-filter; json_each()
  // confirms an exact element.
  tag: (tag, bind) =>
    `instr(tags, ${bind(JSON.stringify(tag))}) > 0 AND EXISTS (SELECT 1 FROM json_each(tags) WHERE value = ${bind(tag)})`,
  text: (pattern) => `title LIKE ${pattern} ESCAPE '\\'`,
  ordered: (arms, order, tail) => `${arms.join(' UNION ALL ')} ORDER BY ${order} ${tail}`,
};

export interface SqliteBoardOptions {
  dataDir: string;
  /** Bounds of a filtered cards page (tests lower them). @default SCAN_ROWS keys, 1000 a window */
  scan?: ScanLimits;
}

export function openSqliteBoardStore(opts: SqliteBoardOptions): BoardStore {
  const db = openDatabaseFile(opts.dataDir);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  migrate(db);
  // Checkpoints are the ingesting connection's (its checkpointer thread's): a board write must not
  // copy the WAL into the database on the event loop.
  db.pragma('wal_autocheckpoint = 0');
  const write = writesWhenFree(db);

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
  const triage = createSqliteTriage(db, write);
  const variantSql = `SELECT id, title, substr(description, 1, ?) AS description,
      length(description) AS description_length, file_name, line_number, count, first_seen_at,
      last_seen_at, aggregate FROM variants WHERE card_id = ?`;

  return {
    ...createSqliteSessions(db, write),
    ...createSqliteEnvReads(prepared),
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
    listCards: (projectId, query) =>
      listCardPage(
        {
          dialect: SQLITE_CARDS,
          page(q, limit, to) {
            const { sql, params } = cardsSql(SQLITE_CARDS, projectId, q, { limit, to });
            return prepared(sql).all(...params) as SummaryRow[];
          },
          edge(q, offset) {
            const { sql, params } = cardsSql(SQLITE_CARDS, projectId, q, {
              limit: 1,
              offset,
              keysOnly: true,
            });
            const key = prepared(sql)
              .raw()
              .get(...params) as SortKey | undefined;
            return key;
          },
          // Between windows of a long scan, requests and ingestion waiting on the event loop run.
          pause: () => new Promise((resolve) => setImmediate(resolve)),
        },
        query,
        opts.scan,
      ),
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
