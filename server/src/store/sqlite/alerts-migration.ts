// A migration of migrations.ts (its own file for its length): alerts. Shipped migrations are never
// edited.

/**
 * Alerts. Webhooks (the secret kept as its sha256 only) and per-project rules, removed by a mark
 * so the delivery log keeps their names; the queue of new cards and regressions and the
 * per-minute report counts ingestion leaves for the rules (written only where a project has a
 * rule that reads them); when each rule last alerted for each card (its window); deliveries with
 * their body, attempts and claim, due ones found by `alert_deliveries_due`.
 */
export const ALERTS = `
  CREATE TABLE webhooks (id INTEGER PRIMARY KEY, project_id INTEGER NOT NULL REFERENCES projects(id),
    name TEXT NOT NULL, url TEXT NOT NULL, format TEXT NOT NULL, secret_hash BLOB,
    created_at INTEGER NOT NULL, removed_at INTEGER);
  CREATE INDEX webhooks_by_project ON webhooks (project_id, id);
  CREATE TABLE alert_rules (id INTEGER PRIMARY KEY, project_id INTEGER NOT NULL REFERENCES projects(id),
    webhook_id INTEGER NOT NULL REFERENCES webhooks(id), name TEXT NOT NULL, event TEXT NOT NULL,
    environments TEXT, severities TEXT, threshold INTEGER, window_minutes INTEGER NOT NULL,
    created_at INTEGER NOT NULL, removed_at INTEGER);
  CREATE INDEX alert_rules_live ON alert_rules (project_id, event) WHERE removed_at IS NULL;
  CREATE TABLE alert_queue (id INTEGER PRIMARY KEY, project_id INTEGER NOT NULL,
    card_id INTEGER NOT NULL, event TEXT NOT NULL, environment TEXT, release TEXT,
    at INTEGER NOT NULL);
  CREATE TABLE alert_counts (project_id INTEGER NOT NULL, minute INTEGER NOT NULL,
    card_id INTEGER NOT NULL, environment TEXT NOT NULL, count INTEGER NOT NULL,
    PRIMARY KEY (project_id, minute, card_id, environment)) WITHOUT ROWID;
  CREATE TABLE alert_marks (rule_id INTEGER NOT NULL, card_id INTEGER NOT NULL, at INTEGER NOT NULL,
    PRIMARY KEY (rule_id, card_id)) WITHOUT ROWID;
  CREATE TABLE alert_deliveries (id INTEGER PRIMARY KEY, project_id INTEGER NOT NULL,
    rule_id INTEGER NOT NULL, webhook_id INTEGER NOT NULL, card_id INTEGER, event TEXT NOT NULL,
    body TEXT NOT NULL, created_at INTEGER NOT NULL, state TEXT NOT NULL DEFAULT 'pending',
    attempts INTEGER NOT NULL DEFAULT 0, last_status INTEGER, last_error TEXT, next_at INTEGER,
    claimed_until INTEGER, finished_at INTEGER);
  CREATE INDEX alert_deliveries_due ON alert_deliveries (next_at) WHERE state = 'pending';
  CREATE INDEX alert_deliveries_by_project ON alert_deliveries (project_id, id);
`;
