// The statement ingestion adds for alert rules on PostgreSQL, created by the alerts migration
// (migrations.ts). Part of a shipped migration once landed: never edit; a change is a later
// migration with CREATE OR REPLACE FUNCTION.

/**
 * `svc_alert_write(input, written)`: what a batch leaves for alert rules, run in the batch's own
 * statement right after `svc_ingest_write` (`SELECT svc_alert_write($2, svc_ingest_write($1))`),
 * so in its transaction; `written` is that function's result, returned unchanged. When the batch
 * was written (not stale, not revoked): each new card and regression is queued where its project
 * has a live rule for that event, and the reports per card, environment and minute are added
 * where it has a frequency rule. Refs below zero name the batch's new cards (their ids are in
 * `written.cards`, by position).
 */
export const ALERT_WRITE_V8 = `
  CREATE FUNCTION svc_alert_write(input json, written jsonb) RETURNS jsonb
  LANGUAGE plpgsql AS $fn$
  DECLARE
    doc jsonb := input::jsonb;
    live jsonb;
  BEGIN
    IF NOT written ? 'cards' THEN
      RETURN written;
    END IF;
    SELECT COALESCE(jsonb_agg(DISTINCT jsonb_build_array(r.project_id, r.event)), '[]') INTO live
      FROM alert_rules r
      WHERE r.removed_at IS NULL AND r.project_id IN (
        SELECT (x->>'p')::integer FROM jsonb_array_elements(doc->'notices') x
        UNION SELECT (x->>'p')::integer FROM jsonb_array_elements(doc->'counts') x);
    IF live = '[]' THEN
      RETURN written;
    END IF;
    INSERT INTO alert_queue (project_id, card_id, event, environment, release, at)
      SELECT x.p, CASE WHEN x.c < 0 THEN (written->'cards'->>(-x.c - 1)::integer)::integer ELSE x.c END,
        x.kind, x.env, x.release, x.at
      FROM jsonb_to_recordset(doc->'notices')
        AS x(i integer, p integer, c bigint, kind text, env text, release text, at bigint)
      WHERE live @> jsonb_build_array(jsonb_build_array(x.p, x.kind))
      ORDER BY x.i;
    INSERT INTO alert_counts (project_id, minute, card_id, environment, count)
      SELECT x.p, x.m, CASE WHEN x.c < 0 THEN (written->'cards'->>(-x.c - 1)::integer)::integer ELSE x.c END,
        x.env, x.n
      FROM jsonb_to_recordset(doc->'counts')
        AS x(p integer, m integer, c bigint, env text, n integer)
      WHERE live @> jsonb_build_array(jsonb_build_array(x.p, 'frequency'))
      ORDER BY 1, 2, 3, 4
      ON CONFLICT (project_id, minute, card_id, environment)
        DO UPDATE SET count = alert_counts.count + excluded.count;
    RETURN written;
  END $fn$;
`;
