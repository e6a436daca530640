import type {
  AuthKey,
  Card,
  CardWithVariants,
  EncryptionKeyPair,
  KeySummary,
  OutboxMail,
  Variant,
} from './types.ts';

// Row shapes of the tables (the same columns on SQLite and PostgreSQL) and their mapping to the
// public shapes (snake_case cards, ISO times).

export interface CardRow {
  id: number;
  project_id: number;
  title: string;
  description: string | null;
  description_type: Card['description_type'];
  priority: Card['priority'];
  severity: Card['severity'];
  tags: string;
  status: Card['status'];
  occurrence_count: number;
  file_name: string | null;
  line_number: number | null;
  created_at: number;
  last_seen_at: number;
  /** UTC day (days since the epoch) of `usage_count`, the card's events that day. */
  usage_day: number | null;
  usage_count: number;
  /** Reports that reopened the card after it was `done`, and when the last one came. */
  regressions: number;
  last_regressed_at: number | null;
  /** While `done`: the environment and release it was resolved in (null: any). */
  resolved_env: string | null;
  resolved_release: string | null;
}

/** A card row without its description, as the ingest caches it. */
export type CardHead = Omit<CardRow, 'description'>;

export interface VariantRow {
  id: number;
  title: string | null;
  description: string | null;
  file_name: string | null;
  line_number: number | null;
  count: number;
  first_seen_at: number;
  last_seen_at: number;
  aggregate: number;
}

export const iso = (ms: number): string => new Date(ms).toISOString();

export function toCard(row: CardRow): Card {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    description_type: row.description_type,
    priority: row.priority,
    severity: row.severity,
    tags: JSON.parse(row.tags) as string[],
    status: row.status,
    occurrence_count: row.occurrence_count,
    created_at: iso(row.created_at),
    last_seen_at: iso(row.last_seen_at),
    file_name: row.file_name,
    line_number: row.line_number,
  };
}

/** A card with its triage and variants, as `listCards` gives it. */
export const toListedCard = (row: CardRow, variants: VariantRow[]): CardWithVariants => ({
  ...toCard(row),
  regressions: row.regressions,
  last_regressed_at: row.last_regressed_at === null ? null : iso(row.last_regressed_at),
  variants: variants.map(toVariant),
});

export function toVariant(row: VariantRow): Variant {
  return {
    title: row.title,
    description: row.description,
    file_name: row.file_name,
    line_number: row.line_number,
    count: row.count,
    first_seen_at: iso(row.first_seen_at),
    last_seen_at: iso(row.last_seen_at),
    aggregate: row.aggregate === 1,
  };
}

export interface KeyRow {
  id: number;
  project_id: number;
  kind: AuthKey['kind'];
  name: string;
  lookup: string;
  origins: string;
  created_at: number;
  revoked_at: number | null;
}

export const toKeySummary = (r: KeyRow): KeySummary => ({
  id: r.id,
  projectId: r.project_id,
  kind: r.kind,
  name: r.name,
  publicId: r.kind === 'publishable' ? null : r.lookup,
  origins: JSON.parse(r.origins),
  createdAt: iso(r.created_at),
  revokedAt: r.revoked_at === null ? null : iso(r.revoked_at),
});

/** An encryption key's columns. */
export interface EncryptionKeyRow {
  lookup: string;
  public_key: string;
  private_key: Buffer;
}

export const toKeyPair = (r: EncryptionKeyRow): EncryptionKeyPair => ({
  keyId: r.lookup,
  publicKey: new Uint8Array(Buffer.from(r.public_key, 'base64')),
  privateKey: new Uint8Array(r.private_key),
});

export interface OutboxRow {
  id: number;
  account_id: number;
  recipients: string;
  subject: string;
  body: string;
  created_at: number;
  sent_at: number | null;
  attempts: number;
  last_error: string | null;
}

export const toMail = (r: OutboxRow): OutboxMail => ({
  id: r.id,
  accountId: r.account_id,
  to: JSON.parse(r.recipients),
  subject: r.subject,
  text: r.body,
  createdAt: iso(r.created_at),
  sentAt: r.sent_at === null ? null : iso(r.sent_at),
  attempts: r.attempts,
  lastError: r.last_error,
});

/** The aggregate variant row (contract 2.4, "Other variants"): its title and the identity no report has. */
export const AGGREGATE_TITLE = 'Other variants';
export const AGGREGATE_IDENTITY = '*aggregate*';
