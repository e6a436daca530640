// A migration of migrations.ts (its own file for its length): environments, release-aware
// resolution and full-text search. Shipped migrations are never edited.

/**
 * Environments: a card's reports per environment (`card_envs`: counts, first and last seen, and
 * copies of what the cards page sorts by, each sort an index led by project, environment and
 * status, as the cards' own), its events per environment and hour (`card_env_hours`, as
 * `card_hours`), cards per environment and status (kept by triggers, as `card_status_counts`).
 * A card's status is copied to its environments by a trigger. Existing cards count in their first
 * `env:` tag's environment (production without one).
 * Release-aware resolution: the environment and release a `done` card was resolved in; releases
 * per project in the order first seen; history rows say the environment and how a release was
 * ordered; queued notices say the environment.
 * Search: an FTS5 index of each card's title, description, file name and tags (contentless, its
 * project a column of its own), kept by triggers.
 */
export const ENVIRONMENTS_AND_SEARCH = `
  ALTER TABLE cards ADD COLUMN resolved_env TEXT;
  ALTER TABLE cards ADD COLUMN resolved_release TEXT;
  ALTER TABLE card_events ADD COLUMN env TEXT;
  ALTER TABLE card_events ADD COLUMN ordering TEXT;
  ALTER TABLE notify_queue ADD COLUMN env TEXT;
  CREATE TABLE releases (id INTEGER PRIMARY KEY, project_id INTEGER NOT NULL REFERENCES projects(id),
    name TEXT NOT NULL, first_seen_at INTEGER NOT NULL, UNIQUE (project_id, name));

  CREATE TABLE card_envs (card_id INTEGER NOT NULL REFERENCES cards(id), env TEXT NOT NULL,
    project_id INTEGER NOT NULL, status TEXT NOT NULL, title TEXT NOT NULL,
    severity_rank INTEGER NOT NULL, priority_rank INTEGER NOT NULL,
    occurrence_count INTEGER NOT NULL, first_seen_at INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL, PRIMARY KEY (card_id, env)) WITHOUT ROWID;
  INSERT INTO card_envs SELECT id, COALESCE((SELECT substr(value, 5) FROM json_each(cards.tags)
      WHERE value LIKE 'env:_%' LIMIT 1), 'production'), project_id, status, title, severity_rank,
      priority_rank, occurrence_count, created_at, last_seen_at FROM cards;
  CREATE INDEX card_envs_by_last_seen ON card_envs (project_id, env, status, last_seen_at, card_id);
  CREATE INDEX card_envs_by_first_seen ON card_envs (project_id, env, status, first_seen_at, card_id);
  CREATE INDEX card_envs_by_count ON card_envs (project_id, env, status, occurrence_count, card_id);
  CREATE INDEX card_envs_by_severity ON card_envs (project_id, env, status, severity_rank, card_id);
  CREATE INDEX card_envs_by_priority ON card_envs (project_id, env, status, priority_rank, card_id);
  CREATE INDEX card_envs_by_title ON card_envs (project_id, env, status, title, card_id);

  CREATE TABLE card_env_hours (card_id INTEGER NOT NULL, env TEXT NOT NULL, hour INTEGER NOT NULL,
    count INTEGER NOT NULL, PRIMARY KEY (card_id, env, hour)) WITHOUT ROWID;
  INSERT INTO card_env_hours SELECT h.card_id, e.env, h.hour, h.count FROM card_hours h
    JOIN card_envs e ON e.card_id = h.card_id;
  CREATE TABLE card_env_status_counts (project_id INTEGER NOT NULL, env TEXT NOT NULL,
    status TEXT NOT NULL, count INTEGER NOT NULL, PRIMARY KEY (project_id, env, status))
    WITHOUT ROWID;
  INSERT INTO card_env_status_counts SELECT project_id, env, status, COUNT(*) FROM card_envs
    GROUP BY project_id, env, status;

  CREATE TRIGGER card_envs_on_insert AFTER INSERT ON card_envs BEGIN
    INSERT INTO card_env_status_counts (project_id, env, status, count)
      VALUES (NEW.project_id, NEW.env, NEW.status, 1)
      ON CONFLICT (project_id, env, status) DO UPDATE SET count = count + 1;
    INSERT INTO card_env_hours (card_id, env, hour, count)
      VALUES (NEW.card_id, NEW.env, NEW.last_seen_at / 3600000, NEW.occurrence_count)
      ON CONFLICT (card_id, env, hour) DO UPDATE SET count = count + excluded.count;
  END;
  CREATE TRIGGER card_envs_on_count AFTER UPDATE OF occurrence_count ON card_envs
  WHEN NEW.occurrence_count > OLD.occurrence_count BEGIN
    INSERT INTO card_env_hours (card_id, env, hour, count)
      VALUES (NEW.card_id, NEW.env, NEW.last_seen_at / 3600000,
        NEW.occurrence_count - OLD.occurrence_count)
      ON CONFLICT (card_id, env, hour) DO UPDATE SET count = count + excluded.count;
  END;
  CREATE TRIGGER card_envs_prune AFTER UPDATE OF last_seen_at ON card_envs
  WHEN NEW.last_seen_at / 3600000 > OLD.last_seen_at / 3600000 BEGIN
    DELETE FROM card_env_hours WHERE card_id = NEW.card_id AND env = NEW.env
      AND hour < NEW.last_seen_at / 3600000 - 47;
  END;
  CREATE TRIGGER card_envs_on_status AFTER UPDATE OF status ON card_envs
  WHEN NEW.status <> OLD.status BEGIN
    UPDATE card_env_status_counts SET count = count - 1
      WHERE project_id = OLD.project_id AND env = OLD.env AND status = OLD.status;
    INSERT INTO card_env_status_counts (project_id, env, status, count)
      VALUES (NEW.project_id, NEW.env, NEW.status, 1)
      ON CONFLICT (project_id, env, status) DO UPDATE SET count = count + 1;
  END;
  CREATE TRIGGER cards_status_to_envs AFTER UPDATE OF status ON cards
  WHEN NEW.status <> OLD.status BEGIN
    UPDATE card_envs SET status = NEW.status WHERE card_id = NEW.id;
  END;

  CREATE VIRTUAL TABLE cards_search USING fts5(project, body, content = '',
    contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 0');
  INSERT INTO cards_search (rowid, project, body) SELECT id, 'p' || project_id,
    concat_ws(' ', title, description, file_name, tags) FROM cards;
  CREATE TRIGGER cards_search_on_insert AFTER INSERT ON cards BEGIN
    INSERT INTO cards_search (rowid, project, body) VALUES (NEW.id, 'p' || NEW.project_id,
      concat_ws(' ', NEW.title, NEW.description, NEW.file_name, NEW.tags));
  END;
  CREATE TRIGGER cards_search_on_tags AFTER UPDATE OF tags ON cards
  WHEN NEW.tags <> OLD.tags BEGIN
    DELETE FROM cards_search WHERE rowid = NEW.id;
    INSERT INTO cards_search (rowid, project, body) VALUES (NEW.id, 'p' || NEW.project_id,
      concat_ws(' ', NEW.title, NEW.description, NEW.file_name, NEW.tags));
  END;
`;
