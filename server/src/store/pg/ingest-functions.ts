// The two statements of PostgreSQL ingestion, created by migration 5 (migrations.ts). Part of a
// shipped migration: never edit; a change is a later migration with CREATE OR REPLACE FUNCTION.
// Inputs and results are JSON (one parameter each way, so each is one prepared statement); the
// shapes are built and read in ingest-read.ts and ingest-write.ts.

/**
 * `svc_ingest_read(input, take_lock)`: what a batch needs to decide, at the accounts' versions.
 * Without the lock it reads in one snapshot (one statement), versions included, so a later write
 * at those versions knows nothing moved since. With it, the accounts' rows are locked first (in
 * id order, as every writer locks them) and the read sees every commit before the lock.
 */
export const INGEST_READ_V5 = `
  CREATE FUNCTION svc_ingest_read(input json, take_lock boolean) RETURNS jsonb
  LANGUAGE plpgsql AS $fn$
  DECLARE
    doc jsonb := input::jsonb;
    account_ids integer[] := ARRAY(SELECT jsonb_array_elements_text(doc->'accounts')::integer);
    on_day integer := (doc->>'day')::integer;
    result jsonb;
  BEGIN
    IF take_lock THEN
      PERFORM 1 FROM accounts WHERE id = ANY(account_ids) ORDER BY id FOR NO KEY UPDATE;
    END IF;
    WITH items AS (
      SELECT * FROM jsonb_to_recordset(doc->'items')
        AS x(i integer, p integer, t text, h text, d text, v text)
    ), by_title AS (
      SELECT x.i, (SELECT c.id FROM cards c WHERE c.project_id = x.p AND c.title = x.t
        ORDER BY c.id LIMIT 1) AS card FROM items x
    ), by_description AS (
      SELECT x.i, (SELECT c.id FROM cards c WHERE c.project_id = x.p AND c.description_hash = x.h
        AND c.description = x.d ORDER BY c.id LIMIT 1) AS card
      FROM items x JOIN by_title b ON b.i = x.i WHERE b.card IS NULL AND x.h IS NOT NULL
    ), matched AS (
      SELECT x.i, x.v, COALESCE(b.card, d.card) AS card FROM items x
        JOIN by_title b ON b.i = x.i LEFT JOIN by_description d ON d.i = x.i
    ), card_ids AS (
      SELECT card FROM matched WHERE card IS NOT NULL
      UNION SELECT jsonb_array_elements_text(doc->'cards')::integer
    ), pairs AS (
      SELECT card, v AS identity FROM matched WHERE card IS NOT NULL
      UNION SELECT (e->>0)::integer, e->>1 FROM jsonb_array_elements(doc->'variants') e
    )
    SELECT jsonb_build_object(
      'versions', (SELECT jsonb_agg(jsonb_build_array(id, ingest_version)) FROM accounts
        WHERE id = ANY(account_ids)),
      'counters', (SELECT jsonb_agg(jsonb_build_array(p.id, p.account_id, p.state, b.tokens,
          b.updated_at,
          (SELECT COUNT(*) FROM projects o WHERE o.account_id = p.account_id AND o.state = 'active'),
          (SELECT COALESCE(SUM(u.count), 0) FROM usage u WHERE u.account_id = p.account_id
            AND u.day = on_day),
          COALESCE((SELECT u.count FROM usage u WHERE u.account_id = p.account_id
            AND u.day = on_day AND u.project_id = p.id), 0)))
        FROM projects p LEFT JOIN buckets b ON b.project_id = p.id
        WHERE p.id IN (SELECT jsonb_array_elements_text(doc->'projects')::integer)),
      'titles', (SELECT jsonb_agg(jsonb_build_array(i, card)) FROM by_title),
      'descriptions', (SELECT jsonb_agg(jsonb_build_array(i, card)) FROM by_description),
      'cards', (SELECT jsonb_agg(jsonb_build_array(c.id, c.project_id, c.title, c.description_type,
          c.priority, c.severity, c.tags, c.status, c.occurrence_count, c.file_name, c.line_number,
          c.created_at, c.last_seen_at, c.usage_day, c.usage_count, c.regressions,
          (SELECT COUNT(*) FROM variants v WHERE v.card_id = c.id AND v.aggregate = 0)))
        FROM cards c WHERE c.id IN (SELECT card FROM card_ids)),
      'variants', (SELECT jsonb_agg(jsonb_build_array(pr.card, pr.identity, v.id)) FROM pairs pr
        LEFT JOIN variants v ON v.card_id = pr.card AND v.identity = pr.identity),
      'lists', (SELECT jsonb_agg(jsonb_build_array(v.card_id, v.id, v.count, v.first_seen_at,
          v.last_seen_at) ORDER BY v.card_id, v.id) FROM variants v
        WHERE v.card_id IN (SELECT jsonb_array_elements_text(doc->'lists')::integer)
          AND v.aggregate = 0)
    ) INTO result;
    RETURN result;
  END $fn$;
`;

/**
 * `svc_ingest_write(input)`: a batch's writes, all of them, if every account is still at the
 * version the batch decided on (checked after locking the accounts' rows in id order); else
 * nothing, and the accounts' current versions (`stale`). New cards and variants get their ids
 * from their sequences in the batch's order; refs below zero name the batch's new cards.
 */
export const INGEST_WRITE_V5 = `
  CREATE FUNCTION svc_ingest_write(input json) RETURNS jsonb LANGUAGE plpgsql AS $fn$
  DECLARE
    doc jsonb := input::jsonb;
    stale jsonb;
    revoked jsonb;
    card_ids bigint[] := '{}';
    variant_ids bigint[] := '{}';
    descriptions jsonb;
  BEGIN
    SELECT jsonb_agg(jsonb_build_array(a.id, a.ingest_version))
        FILTER (WHERE a.ingest_version <> (e->>1)::bigint) INTO stale
      FROM (SELECT id, ingest_version FROM accounts WHERE id IN
          (SELECT (x->>0)::integer FROM jsonb_array_elements(doc->'accounts') x)
          ORDER BY id FOR NO KEY UPDATE) a
      JOIN jsonb_array_elements(doc->'accounts') e ON a.id = (e->>0)::integer;
    IF stale IS NOT NULL THEN
      RETURN jsonb_build_object('stale', stale);
    END IF;
    SELECT jsonb_agg(id) INTO revoked FROM api_keys
      WHERE id IN (SELECT jsonb_array_elements_text(doc->'keys')::integer)
        AND revoked_at IS NOT NULL;
    IF revoked IS NOT NULL THEN
      RETURN jsonb_build_object('revoked', revoked);
    END IF;
    IF jsonb_array_length(doc->'buckets') > 0 THEN
      INSERT INTO buckets (project_id, tokens, updated_at)
        SELECT x.p, x.t, x.u FROM jsonb_to_recordset(doc->'buckets')
          AS x(p integer, t double precision, u bigint)
        ON CONFLICT (project_id) DO UPDATE SET tokens = excluded.tokens,
          updated_at = excluded.updated_at;
    END IF;
    IF jsonb_array_length(doc->'usage') > 0 THEN
      INSERT INTO usage (account_id, day, project_id, count)
        SELECT x.a, x.d, x.p, x.n FROM jsonb_to_recordset(doc->'usage')
          AS x(a integer, d integer, p integer, n integer)
        ON CONFLICT (account_id, day, project_id) DO UPDATE
          SET count = usage.count + excluded.count;
    END IF;
    IF jsonb_array_length(doc->'inserts') > 0 THEN
      card_ids := ARRAY(SELECT nextval(pg_get_serial_sequence('cards', 'id'))
        FROM jsonb_array_elements(doc->'inserts'));
      INSERT INTO cards (id, project_id, title, description, description_hash, description_type,
          priority, severity, tags, status, occurrence_count, file_name, line_number, created_at,
          last_seen_at, usage_day, usage_count)
        SELECT card_ids[x.i], x.p, x.title, x.description, x.hash, x.type, x.priority,
          x.severity, x.tags, x.status, x.n, x.file, x.line, x.created, x.last, x.ud, x.uc
        FROM jsonb_to_recordset(doc->'inserts') AS x(i integer, p integer, title text,
          description text, hash text, type text, priority text, severity text, tags text,
          status text, n integer, file text, line double precision, created bigint, last bigint,
          ud integer, uc integer)
        ORDER BY x.i;
    END IF;
    IF jsonb_array_length(doc->'updates') > 0 THEN
      UPDATE cards SET occurrence_count = x.n, last_seen_at = x.last,
          tags = COALESCE(x.tags, cards.tags), usage_day = x.ud, usage_count = x.uc
        FROM jsonb_to_recordset(doc->'updates')
          AS x(id integer, n integer, last bigint, tags text, ud integer, uc integer)
        WHERE cards.id = x.id;
    END IF;
    IF jsonb_array_length(doc->'regressions') > 0 THEN
      UPDATE cards SET status = x.status, regressions = x.n, last_regressed_at = x.at
        FROM jsonb_to_recordset(doc->'regressions')
          AS x(i integer, id integer, prior text, status text, n integer, at bigint, release text)
        WHERE cards.id = x.id;
      INSERT INTO card_events (card_id, at, kind, from_status, to_status, actor, release)
        SELECT x.id, x.at, 'regression', x.prior, x.status, NULL, x.release
        FROM jsonb_to_recordset(doc->'regressions')
          AS x(i integer, id integer, prior text, status text, n integer, at bigint, release text)
        ORDER BY x.i;
    END IF;
    IF jsonb_array_length(doc->'removals') > 0 THEN
      DELETE FROM variants
        WHERE id IN (SELECT jsonb_array_elements_text(doc->'removals')::integer);
    END IF;
    IF jsonb_array_length(doc->'adds') > 0 THEN
      UPDATE variants SET count = variants.count + x.add, last_seen_at = x.last
        FROM jsonb_to_recordset(doc->'adds') AS x(id integer, add integer, last bigint)
        WHERE variants.id = x.id;
    END IF;
    IF jsonb_array_length(doc->'variants') > 0 THEN
      variant_ids := ARRAY(SELECT nextval(pg_get_serial_sequence('variants', 'id'))
        FROM jsonb_array_elements(doc->'variants'));
      INSERT INTO variants (id, card_id, identity, aggregate, title, description, file_name,
          line_number, count, first_seen_at, last_seen_at)
        SELECT variant_ids[x.i], CASE WHEN x.c < 0 THEN card_ids[-x.c] ELSE x.c END,
          x.identity, 0, x.title, x.description, x.file, x.line, x.n, x.first, x.last
        FROM jsonb_to_recordset(doc->'variants') AS x(i integer, c bigint, identity text,
          title text, description text, file text, line double precision, n integer,
          first bigint, last bigint)
        ORDER BY x.i;
    END IF;
    IF jsonb_array_length(doc->'folds') > 0 THEN
      INSERT INTO variants (card_id, identity, aggregate, title, count, first_seen_at,
          last_seen_at)
        SELECT CASE WHEN x.c < 0 THEN card_ids[-x.c] ELSE x.c END, doc->'aggregate'->>0, 1,
          doc->'aggregate'->>1, x.n, x.first, x.last
        FROM jsonb_to_recordset(doc->'folds') AS x(c bigint, n integer, first bigint, last bigint)
        ON CONFLICT (card_id, identity) DO UPDATE SET count = variants.count + excluded.count,
          first_seen_at = LEAST(variants.first_seen_at, excluded.first_seen_at),
          last_seen_at = GREATEST(variants.last_seen_at, excluded.last_seen_at);
    END IF;
    IF jsonb_array_length(doc->'notices') > 0 THEN
      INSERT INTO notify_queue (project_id, card_id, kind, release, at)
        SELECT x.p, CASE WHEN x.c < 0 THEN card_ids[-x.c] ELSE x.c END, x.kind, x.release, x.at
        FROM jsonb_to_recordset(doc->'notices')
          AS x(i integer, p integer, c bigint, kind text, release text, at bigint)
        WHERE EXISTS (SELECT 1 FROM project_notify n WHERE n.project_id = x.p)
        ORDER BY x.i;
    END IF;
    IF jsonb_array_length(doc->'want') > 0 THEN
      SELECT jsonb_object_agg(id, description) INTO descriptions FROM cards
        WHERE id IN (SELECT jsonb_array_elements_text(doc->'want')::integer);
    END IF;
    UPDATE accounts SET ingest_version = (e->>2)::bigint
      FROM jsonb_array_elements(doc->'accounts') e
      WHERE accounts.id = (e->>0)::integer AND (e->>2)::bigint <> (e->>1)::bigint;
    RETURN jsonb_build_object('cards', card_ids, 'variants', variant_ids,
      'descriptions', descriptions);
  END $fn$;
`;
