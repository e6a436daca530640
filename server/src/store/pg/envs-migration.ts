import { INGEST_READ_V5, INGEST_WRITE_V5 } from './ingest-functions.ts';

// A migration of migrations.ts (its own file for its length): environments, release-aware
// resolution and full-text search, as SQLite's (sqlite/envs-migration.ts). Shipped migrations are
// never edited.

/** `text` with `from` replaced by `to`; throws when `from` is not there (a frozen text moved). */
function replaced(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`Migration text not found: ${from.slice(0, 60)}`);
  return text.replace(from, to);
}

/**
 * `svc_ingest_read` of migration 5, its cards also with the environment and release each was
 * resolved in.
 */
const INGEST_READ_V6 = replaced(
  replaced(INGEST_READ_V5, 'CREATE FUNCTION', 'CREATE OR REPLACE FUNCTION'),
  '(SELECT COUNT(*) FROM variants v WHERE v.card_id = c.id AND v.aggregate = 0)))',
  `(SELECT COUNT(*) FROM variants v WHERE v.card_id = c.id AND v.aggregate = 0),
          c.resolved_env, c.resolved_release))`,
);

/** Releases seen (each project's first sight kept) and each card's reports per environment. */
const WRITE_RELEASES_AND_ENVS = `
    IF jsonb_array_length(doc->'releases') > 0 THEN
      INSERT INTO releases (project_id, name, first_seen_at)
        SELECT x.p, x.name, x.at FROM jsonb_to_recordset(doc->'releases')
          AS x(i integer, p integer, name text, at bigint)
        ORDER BY x.i
        ON CONFLICT (project_id, name) DO NOTHING;
    END IF;
    IF jsonb_array_length(doc->'envs') > 0 THEN
      INSERT INTO card_envs (card_id, env, project_id, status, title, severity_rank, priority_rank,
          occurrence_count, first_seen_at, last_seen_at)
        SELECT c.id, x.env, c.project_id, c.status, c.title, c.severity_rank, c.priority_rank,
          x.n, x.first, x.last
        FROM jsonb_to_recordset(doc->'envs')
          AS x(c bigint, env text, n integer, first bigint, last bigint)
        JOIN cards c ON c.id = CASE WHEN x.c < 0 THEN card_ids[-x.c] ELSE x.c END
        ORDER BY c.id, x.env
        ON CONFLICT (card_id, env) DO UPDATE SET
          occurrence_count = card_envs.occurrence_count + excluded.occurrence_count,
          first_seen_at = LEAST(card_envs.first_seen_at, excluded.first_seen_at),
          last_seen_at = GREATEST(card_envs.last_seen_at, excluded.last_seen_at);
    END IF;
    IF jsonb_array_length(doc->'want') > 0 THEN`;

const REGRESSIONS_V5 = `      UPDATE cards SET status = x.status, regressions = x.n, last_regressed_at = x.at
        FROM jsonb_to_recordset(doc->'regressions')
          AS x(i integer, id integer, prior text, status text, n integer, at bigint, release text)
        WHERE cards.id = x.id;
      INSERT INTO card_events (card_id, at, kind, from_status, to_status, actor, release)
        SELECT x.id, x.at, 'regression', x.prior, x.status, NULL, x.release
        FROM jsonb_to_recordset(doc->'regressions')
          AS x(i integer, id integer, prior text, status text, n integer, at bigint, release text)`;
const REGRESSIONS_V6 = `      UPDATE cards SET status = x.status, regressions = x.n, last_regressed_at = x.at,
          resolved_env = NULL, resolved_release = NULL
        FROM jsonb_to_recordset(doc->'regressions')
          AS x(i integer, id integer, prior text, status text, n integer, at bigint, release text)
        WHERE cards.id = x.id;
      INSERT INTO card_events (card_id, at, kind, from_status, to_status, actor, release, env,
          ordering)
        SELECT x.id, x.at, 'regression', x.prior, x.status, NULL, x.release, x.env, x.ordering
        FROM jsonb_to_recordset(doc->'regressions')
          AS x(i integer, id integer, prior text, status text, n integer, at bigint, release text,
            env text, ordering text)`;
const NOTICES_V5 = `      INSERT INTO notify_queue (project_id, card_id, kind, release, at)
        SELECT x.p, CASE WHEN x.c < 0 THEN card_ids[-x.c] ELSE x.c END, x.kind, x.release, x.at
        FROM jsonb_to_recordset(doc->'notices')
          AS x(i integer, p integer, c bigint, kind text, release text, at bigint)`;
const NOTICES_V6 = `      INSERT INTO notify_queue (project_id, card_id, kind, release, at, env)
        SELECT x.p, CASE WHEN x.c < 0 THEN card_ids[-x.c] ELSE x.c END, x.kind, x.release, x.at,
          x.env
        FROM jsonb_to_recordset(doc->'notices')
          AS x(i integer, p integer, c bigint, kind text, release text, at bigint, env text)`;

/**
 * `svc_ingest_write` of migration 5, also writing releases and the cards' counts per environment;
 * a regression clears the card's resolution and its history row says the environment and how the
 * release was ordered; a notice says its environment.
 */
const INGEST_WRITE_V6 = [
  ['CREATE FUNCTION', 'CREATE OR REPLACE FUNCTION'],
  [REGRESSIONS_V5, REGRESSIONS_V6],
  [NOTICES_V5, NOTICES_V6],
  ["    IF jsonb_array_length(doc->'want') > 0 THEN", WRITE_RELEASES_AND_ENVS],
].reduce((text, [from, to]) => replaced(text, from!, to!), INGEST_WRITE_V5);

// Every ASCII punctuation character, and as many spaces: search text is split into words there
// (SQLite's unicode61 tokenizer splits at every character that is not a letter or a digit).
const PUNCTUATION = `!"#$%&''()*+,-./:;<=>?@[\\]^_\`{|}~`;
const SPACES = ' '.repeat(32);

export const PG_ENVIRONMENTS_AND_SEARCH = `
  ALTER TABLE cards ADD COLUMN resolved_env text;
  ALTER TABLE cards ADD COLUMN resolved_release text;
  ALTER TABLE card_events ADD COLUMN env text;
  ALTER TABLE card_events ADD COLUMN ordering text;
  ALTER TABLE notify_queue ADD COLUMN env text;
  CREATE TABLE releases (id integer GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    project_id integer NOT NULL REFERENCES projects(id), name text NOT NULL,
    first_seen_at bigint NOT NULL, UNIQUE (project_id, name));
  CREATE TRIGGER cards_moved_on_resolution AFTER UPDATE OF resolved_env, resolved_release ON cards
    FOR EACH ROW WHEN (OLD.resolved_env IS DISTINCT FROM NEW.resolved_env
      OR OLD.resolved_release IS DISTINCT FROM NEW.resolved_release)
    EXECUTE FUNCTION svc_ingest_moved();

  CREATE TABLE card_envs (card_id integer NOT NULL REFERENCES cards(id), env text NOT NULL,
    project_id integer NOT NULL, status text NOT NULL, title text COLLATE "C" NOT NULL,
    severity_rank integer NOT NULL, priority_rank integer NOT NULL,
    occurrence_count integer NOT NULL, first_seen_at bigint NOT NULL, last_seen_at bigint NOT NULL,
    PRIMARY KEY (card_id, env));
  INSERT INTO card_envs SELECT id, COALESCE((SELECT substr(t, 5)
      FROM jsonb_array_elements_text(tags::jsonb) WITH ORDINALITY AS x(t, n)
      WHERE t LIKE 'env:_%' ORDER BY n LIMIT 1), 'production'), project_id, status, title,
    severity_rank, priority_rank, occurrence_count, created_at, last_seen_at FROM cards;
  CREATE INDEX card_envs_by_last_seen ON card_envs (project_id, env, status, last_seen_at, card_id);
  CREATE INDEX card_envs_by_first_seen ON card_envs (project_id, env, status, first_seen_at, card_id);
  CREATE INDEX card_envs_by_count ON card_envs (project_id, env, status, occurrence_count, card_id);
  CREATE INDEX card_envs_by_severity ON card_envs (project_id, env, status, severity_rank, card_id);
  CREATE INDEX card_envs_by_priority ON card_envs (project_id, env, status, priority_rank, card_id);
  CREATE INDEX card_envs_by_title ON card_envs (project_id, env, status, title, card_id);

  CREATE TABLE card_env_hours (card_id integer NOT NULL, env text NOT NULL, hour bigint NOT NULL,
    count integer NOT NULL, PRIMARY KEY (card_id, env, hour));
  INSERT INTO card_env_hours SELECT h.card_id, e.env, h.hour, h.count FROM card_hours h
    JOIN card_envs e ON e.card_id = h.card_id;
  CREATE TABLE card_env_status_counts (project_id integer NOT NULL, env text NOT NULL,
    status text NOT NULL, count integer NOT NULL, PRIMARY KEY (project_id, env, status));
  INSERT INTO card_env_status_counts SELECT project_id, env, status, COUNT(*) FROM card_envs
    GROUP BY project_id, env, status;

  CREATE FUNCTION svc_card_envs() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'INSERT' OR NEW.status IS DISTINCT FROM OLD.status THEN
      IF TG_OP = 'UPDATE' THEN
        UPDATE card_env_status_counts SET count = count - 1
          WHERE project_id = OLD.project_id AND env = OLD.env AND status = OLD.status;
      END IF;
      INSERT INTO card_env_status_counts (project_id, env, status, count)
        VALUES (NEW.project_id, NEW.env, NEW.status, 1)
        ON CONFLICT (project_id, env, status) DO UPDATE
          SET count = card_env_status_counts.count + 1;
    END IF;
    IF TG_OP = 'INSERT' OR NEW.occurrence_count > OLD.occurrence_count THEN
      INSERT INTO card_env_hours (card_id, env, hour, count)
        VALUES (NEW.card_id, NEW.env, NEW.last_seen_at / 3600000,
          NEW.occurrence_count - CASE WHEN TG_OP = 'INSERT' THEN 0 ELSE OLD.occurrence_count END)
        ON CONFLICT (card_id, env, hour) DO UPDATE SET count = card_env_hours.count + excluded.count;
    END IF;
    IF TG_OP = 'UPDATE' AND NEW.last_seen_at / 3600000 > OLD.last_seen_at / 3600000 THEN
      DELETE FROM card_env_hours WHERE card_id = NEW.card_id AND env = NEW.env
        AND hour < NEW.last_seen_at / 3600000 - 47;
    END IF;
    RETURN NULL;
  END $$;
  CREATE TRIGGER card_envs_on_insert AFTER INSERT ON card_envs
    FOR EACH ROW EXECUTE FUNCTION svc_card_envs();
  CREATE TRIGGER card_envs_on_update AFTER UPDATE ON card_envs
    FOR EACH ROW EXECUTE FUNCTION svc_card_envs();
  CREATE FUNCTION svc_card_status_to_envs() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE card_envs SET status = NEW.status WHERE card_id = NEW.id;
    RETURN NULL;
  END $$;
  CREATE TRIGGER cards_status_to_envs AFTER UPDATE OF status ON cards
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
    EXECUTE FUNCTION svc_card_status_to_envs();

  CREATE FUNCTION svc_search_words(doc text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT translate(doc, '${PUNCTUATION}', '${SPACES}') $$;
  CREATE FUNCTION svc_card_search_doc(project integer, title text, description text,
      file_name text, tags text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT array_to_tsvector(ARRAY['project:' || project]) || to_tsvector('simple',
      svc_search_words(title || ' ' || COALESCE(description, '') || ' ' || COALESCE(file_name, '')
        || ' ' || tags)) $$;
  CREATE TABLE card_search (card_id integer PRIMARY KEY REFERENCES cards(id),
    doc tsvector NOT NULL);
  INSERT INTO card_search SELECT id,
    svc_card_search_doc(project_id, title, description, file_name, tags) FROM cards;
  CREATE INDEX card_search_by_word ON card_search USING gin (doc);
  CREATE FUNCTION svc_card_search() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO card_search (card_id, doc) VALUES (NEW.id,
        svc_card_search_doc(NEW.project_id, NEW.title, NEW.description, NEW.file_name, NEW.tags))
      ON CONFLICT (card_id) DO UPDATE SET doc = excluded.doc;
    RETURN NULL;
  END $$;
  CREATE TRIGGER cards_search_on_insert AFTER INSERT ON cards
    FOR EACH ROW EXECUTE FUNCTION svc_card_search();
  CREATE TRIGGER cards_search_on_tags AFTER UPDATE OF tags ON cards
    FOR EACH ROW WHEN (OLD.tags IS DISTINCT FROM NEW.tags) EXECUTE FUNCTION svc_card_search();

  ${INGEST_READ_V6}
  ${INGEST_WRITE_V6}
`;
