import type Database from 'better-sqlite3';
import {
  CARD_EVENT_COLUMNS,
  type CardEventRow,
  resolutionOf,
  statusCounts,
  toCardEvent,
} from '../board-rows.ts';
import type { BoardStore, StatusChanged } from '../board-types.ts';
import type { WhenFree } from './writes-when-free.ts';

type Triage = Pick<BoardStore, 'setCardStatus' | 'cardHistory'> & {
  statusCounts(projectId: number): ReturnType<typeof statusCounts>;
};

/**
 * The board's triage writes and reads on SQLite (its own connection). A status change is one
 * IMMEDIATE transaction: it waits for an ingest batch to commit, and commits before the next one
 * reads (the ingest notices the other connection's commit through `PRAGMA data_version` and
 * re-reads the cards it had cached), so a report and a status change never overwrite each other.
 * Another process's write lock is waited for through `write`, with the event loop free.
 */
export function createSqliteTriage(db: Database.Database, write: WhenFree): Triage {
  const q = {
    cards: db.prepare(
      `SELECT id, title, status, resolved_env, resolved_release FROM cards
       WHERE id IN (SELECT value FROM json_each(?)) AND (? IS NULL OR project_id = ?) ORDER BY id`,
    ),
    set: db.prepare(
      'UPDATE cards SET status = ?, resolved_env = ?, resolved_release = ? WHERE id = ?',
    ),
    event: db.prepare(
      `INSERT INTO card_events (card_id, at, kind, from_status, to_status, actor, release, env)
       VALUES (?, ?, 'status', ?, ?, ?, ?, ?)`,
    ),
    history: db.prepare(
      `SELECT ${CARD_EVENT_COLUMNS} FROM card_events
       WHERE card_id = ? AND id < ? ORDER BY id DESC LIMIT ?`,
    ),
    counts: db.prepare('SELECT status, count FROM card_status_counts WHERE project_id = ?'),
  };
  type Found = Pick<StatusChanged, 'id' | 'title'> & {
    status: StatusChanged['from'];
    resolved_env: string | null;
    resolved_release: string | null;
  };
  const change = db.transaction((c: Parameters<Triage['setCardStatus']>[0]): StatusChanged[] => {
    const project = c.projectId ?? null;
    const [env, release] = resolutionOf(c);
    const found = q.cards.all(JSON.stringify(c.cardIds), project, project) as Found[];
    for (const card of found) {
      const same =
        card.status === c.status && card.resolved_env === env && card.resolved_release === release;
      if (same) continue;
      q.set.run(c.status, env, release, card.id);
      q.event.run(card.id, c.at, card.status, c.status, c.actor, release, env);
    }
    return found.map((card) => ({
      id: card.id,
      title: card.title,
      from: card.status,
      to: c.status,
    }));
  });
  return {
    setCardStatus: (c) => write(() => change.immediate(c)),
    cardHistory: (cardId, limit, before = Number.MAX_SAFE_INTEGER) =>
      (q.history.all(cardId, before, limit) as CardEventRow[]).map(toCardEvent),
    statusCounts: (projectId) =>
      statusCounts(q.counts.all(projectId) as { status: string; count: number }[]),
  };
}
