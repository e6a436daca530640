import type Database from 'better-sqlite3';
import { ENVIRONMENTS_AND_SEARCH } from './envs-migration.ts';
import { ALERTS } from './alerts-migration.ts';
import { SOURCE_MAPS } from './sourcemaps-migration.ts';

// Versioned schema migrations, applied in order inside one transaction each; the version lives
// in SQLite's `user_version`. Append new entries; never edit a shipped one.
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE accounts (id INTEGER PRIMARY KEY, name TEXT NOT NULL, plan TEXT NOT NULL,
    created_at INTEGER NOT NULL);
  CREATE TABLE members (account_id INTEGER NOT NULL REFERENCES accounts(id), email TEXT NOT NULL,
    role TEXT NOT NULL, PRIMARY KEY (account_id, email));
  CREATE TABLE projects (id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL REFERENCES accounts(id),
    name TEXT NOT NULL, state TEXT NOT NULL DEFAULT 'active', created_at INTEGER NOT NULL);
  CREATE TABLE api_keys (id INTEGER PRIMARY KEY, project_id INTEGER NOT NULL REFERENCES projects(id),
    kind TEXT NOT NULL, name TEXT NOT NULL, lookup TEXT NOT NULL UNIQUE, secret_hash BLOB,
    origins TEXT NOT NULL DEFAULT '[]', public_key TEXT, private_key BLOB,
    created_at INTEGER NOT NULL, revoked_at INTEGER);
  CREATE TABLE cards (id INTEGER PRIMARY KEY, project_id INTEGER NOT NULL REFERENCES projects(id),
    title TEXT NOT NULL, description TEXT, description_hash TEXT, description_type TEXT NOT NULL,
    priority TEXT NOT NULL, severity TEXT NOT NULL, tags TEXT NOT NULL, status TEXT NOT NULL,
    occurrence_count INTEGER NOT NULL, file_name TEXT, line_number INTEGER,
    created_at INTEGER NOT NULL, last_seen_at INTEGER NOT NULL);
  CREATE INDEX cards_by_title ON cards (project_id, title);
  CREATE INDEX cards_by_description ON cards (project_id, description_hash)
    WHERE description_hash IS NOT NULL;
  CREATE TABLE variants (id INTEGER PRIMARY KEY, card_id INTEGER NOT NULL REFERENCES cards(id),
    identity TEXT NOT NULL, aggregate INTEGER NOT NULL DEFAULT 0, title TEXT, description TEXT,
    file_name TEXT, line_number INTEGER, count INTEGER NOT NULL, first_seen_at INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL, UNIQUE (card_id, identity));
  CREATE TABLE burst (project_id INTEGER NOT NULL, minute INTEGER NOT NULL, count INTEGER NOT NULL,
    PRIMARY KEY (project_id, minute)) WITHOUT ROWID;
  CREATE TABLE usage (account_id INTEGER NOT NULL, day INTEGER NOT NULL, project_id INTEGER NOT NULL,
    count INTEGER NOT NULL, PRIMARY KEY (account_id, day, project_id)) WITHOUT ROWID;
  CREATE TABLE card_usage (card_id INTEGER NOT NULL, day INTEGER NOT NULL, count INTEGER NOT NULL,
    PRIMARY KEY (card_id, day)) WITHOUT ROWID;
  CREATE TABLE quota_warnings (account_id INTEGER NOT NULL, day INTEGER NOT NULL,
    threshold INTEGER NOT NULL, PRIMARY KEY (account_id, day, threshold)) WITHOUT ROWID;
  CREATE TABLE outbox (id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL, recipients TEXT NOT NULL,
    subject TEXT NOT NULL, body TEXT NOT NULL, created_at INTEGER NOT NULL, sent_at INTEGER,
    attempts INTEGER NOT NULL DEFAULT 0, last_error TEXT);
  `,
  // 2: a card's events of its latest day live on the card row itself (one page less per commit).
  `
  ALTER TABLE cards ADD COLUMN usage_day INTEGER;
  ALTER TABLE cards ADD COLUMN usage_count INTEGER NOT NULL DEFAULT 0;
  UPDATE cards SET usage_day = u.day, usage_count = u.count FROM
    (SELECT card_id, day, count FROM card_usage cu WHERE day = (SELECT MAX(day) FROM card_usage
      WHERE card_id = cu.card_id)) AS u WHERE cards.id = u.card_id;
  DROP TABLE card_usage;
  `,
  // 3: the board. Admin tokens (hashes only) and their browser sessions; keyset sort indexes for
  // the cards page (severity and priority ranked by generated columns, their indexes keyed by
  // values that never change, so repeats of a card do not rewrite them); events per card and UTC
  // hour, kept by triggers on occurrence_count so every writer of a card's count feeds them, and
  // pruned to the card's last 48 hours whenever its last report moves into a new hour.
  `
  CREATE TABLE admin_tokens (id INTEGER PRIMARY KEY, name TEXT NOT NULL, lookup TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL, revoked_at INTEGER);
  CREATE TABLE board_sessions (lookup TEXT PRIMARY KEY,
    token_id INTEGER NOT NULL REFERENCES admin_tokens(id), created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL) WITHOUT ROWID;
  ALTER TABLE cards ADD COLUMN severity_rank INTEGER GENERATED ALWAYS AS (CASE severity
    WHEN 'critical' THEN 4 WHEN 'major' THEN 3 WHEN 'moderate' THEN 2 WHEN 'minor' THEN 1 ELSE 0 END)
    VIRTUAL;
  ALTER TABLE cards ADD COLUMN priority_rank INTEGER GENERATED ALWAYS AS (CASE priority
    WHEN 'high' THEN 3 WHEN 'medium' THEN 2 WHEN 'low' THEN 1 ELSE 0 END) VIRTUAL;
  CREATE INDEX cards_by_last_seen ON cards (project_id, last_seen_at, id);
  CREATE INDEX cards_by_first_seen ON cards (project_id, created_at, id);
  CREATE INDEX cards_by_count ON cards (project_id, occurrence_count, id);
  CREATE INDEX cards_by_severity ON cards (project_id, severity_rank, id);
  CREATE INDEX cards_by_priority ON cards (project_id, priority_rank, id);
  CREATE TABLE card_hours (card_id INTEGER NOT NULL, hour INTEGER NOT NULL, count INTEGER NOT NULL,
    PRIMARY KEY (card_id, hour)) WITHOUT ROWID;
  CREATE TRIGGER card_hours_on_insert AFTER INSERT ON cards WHEN NEW.occurrence_count > 0 BEGIN
    INSERT INTO card_hours (card_id, hour, count)
      VALUES (NEW.id, NEW.last_seen_at / 3600000, NEW.occurrence_count);
  END;
  CREATE TRIGGER card_hours_on_count AFTER UPDATE OF occurrence_count ON cards
  WHEN NEW.occurrence_count > OLD.occurrence_count BEGIN
    INSERT INTO card_hours (card_id, hour, count)
      VALUES (NEW.id, NEW.last_seen_at / 3600000, NEW.occurrence_count - OLD.occurrence_count)
      ON CONFLICT (card_id, hour) DO UPDATE SET count = count + excluded.count;
  END;
  CREATE TRIGGER card_hours_prune AFTER UPDATE OF last_seen_at ON cards
  WHEN NEW.last_seen_at / 3600000 > OLD.last_seen_at / 3600000 BEGIN
    DELETE FROM card_hours WHERE card_id = NEW.id AND hour < NEW.last_seen_at / 3600000 - 47;
  END;
  `,
  // 4: triage. A card's regressions (reports that reopened it after it was done) and when the last
  // was; its history (status changes with who made them, regressions with their release); cards
  // per project and status, kept by triggers so the project page never counts; per-project e-mail
  // notifications (a row means on; recipients null = the account's members) and the queue of
  // new cards and regressions waiting for the project's next digest.
  `
  ALTER TABLE cards ADD COLUMN regressions INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE cards ADD COLUMN last_regressed_at INTEGER;
  CREATE TABLE card_events (id INTEGER PRIMARY KEY, card_id INTEGER NOT NULL REFERENCES cards(id),
    at INTEGER NOT NULL, kind TEXT NOT NULL, from_status TEXT NOT NULL, to_status TEXT NOT NULL,
    actor TEXT, release TEXT);
  CREATE INDEX card_events_by_card ON card_events (card_id, id);
  CREATE TABLE card_status_counts (project_id INTEGER NOT NULL, status TEXT NOT NULL,
    count INTEGER NOT NULL, PRIMARY KEY (project_id, status)) WITHOUT ROWID;
  INSERT INTO card_status_counts (project_id, status, count)
    SELECT project_id, status, COUNT(*) FROM cards GROUP BY project_id, status;
  CREATE TRIGGER card_status_on_insert AFTER INSERT ON cards BEGIN
    INSERT INTO card_status_counts (project_id, status, count) VALUES (NEW.project_id, NEW.status, 1)
      ON CONFLICT (project_id, status) DO UPDATE SET count = count + 1;
  END;
  CREATE TRIGGER card_status_on_change AFTER UPDATE OF status ON cards
  WHEN NEW.status <> OLD.status BEGIN
    UPDATE card_status_counts SET count = count - 1
      WHERE project_id = OLD.project_id AND status = OLD.status;
    INSERT INTO card_status_counts (project_id, status, count) VALUES (NEW.project_id, NEW.status, 1)
      ON CONFLICT (project_id, status) DO UPDATE SET count = count + 1;
  END;
  CREATE TABLE project_notify (project_id INTEGER PRIMARY KEY REFERENCES projects(id),
    recipients TEXT, created_at INTEGER NOT NULL, last_sent_at INTEGER);
  CREATE TABLE notify_queue (id INTEGER PRIMARY KEY, project_id INTEGER NOT NULL,
    card_id INTEGER NOT NULL, kind TEXT NOT NULL, release TEXT, at INTEGER NOT NULL);
  CREATE INDEX notify_queue_by_project ON notify_queue (project_id, id);
  `,
  // 5: the accounts pages list an account's projects a page at a time, by id.
  `
  CREATE INDEX projects_by_account ON projects (account_id, id);
  `,
  // 6: each sort's index is led by the status, so a status tab reads only its own cards (a page of
  // a status few cards have no longer walks past the others); the views of several statuses merge
  // one index range per status. The title sort keeps cards_by_title (deduplication's): a second
  // index of titles, written at random places, made each new card about 15 % dearer.
  `
  DROP INDEX cards_by_last_seen;
  DROP INDEX cards_by_first_seen;
  DROP INDEX cards_by_count;
  DROP INDEX cards_by_severity;
  DROP INDEX cards_by_priority;
  CREATE INDEX cards_by_status_last_seen ON cards (project_id, status, last_seen_at, id);
  CREATE INDEX cards_by_status_first_seen ON cards (project_id, status, created_at, id);
  CREATE INDEX cards_by_status_count ON cards (project_id, status, occurrence_count, id);
  CREATE INDEX cards_by_status_severity ON cards (project_id, status, severity_rank, id);
  CREATE INDEX cards_by_status_priority ON cards (project_id, status, priority_rank, id);
  `,
  ENVIRONMENTS_AND_SEARCH,
  SOURCE_MAPS,
  ALERTS,
];

export function migrate(db: Database.Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (let v = current; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    }).immediate();
  }
}
