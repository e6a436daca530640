import { CARD_STATUSES, RESOLVED_STATUS } from '../accept/index.ts';
import { taskReportSchema } from '../generated/schema.gen.ts';
import type {
  BoardCard,
  BoardEnvironment,
  BoardVariant,
  CardEvent,
  CardSummary,
  IdPage,
  Paged,
  SortKey,
  StatusChange,
} from './board-types.ts';
import type { CardRow, VariantRow as StoredVariantRow } from './rows.ts';

// Row shapes of the board's reads and their mapping, shared by the SQLite and PostgreSQL board stores.

const { severity, priority } = taskReportSchema.properties;
/**
 * Ranks as the stored columns `severity_rank` / `priority_rank` compute them: severities are
 * listed most severe first, priorities lowest first.
 */
export const SEVERITY_RANK: Record<string, number> = Object.fromEntries(
  severity.enum.map((s, i) => [s, severity.enum.length - i]),
);
export const PRIORITY_RANK: Record<string, number> = Object.fromEntries(
  priority.enum.map((p, i) => [p, i + 1]),
);

/** A card as the cards page lists it, with the rank columns its sorts use. */
export type SummaryRow = Pick<
  CardRow,
  | 'id'
  | 'title'
  | 'severity'
  | 'priority'
  | 'tags'
  | 'status'
  | 'regressions'
  | 'last_regressed_at'
  | 'occurrence_count'
  | 'description_type'
  | 'created_at'
  | 'last_seen_at'
  | 'file_name'
  | 'line_number'
> & {
  severity_rank: number;
  priority_rank: number;
  /** The description's first characters: where its first frames are (`lineIn`). */
  description_head: string | null;
};

/** Characters of a description the cards page reads to find the line of its file. */
const DESCRIPTION_HEAD = 2048;

/**
 * The columns of `SummaryRow` as a select list; `column` names each field's column (the card's,
 * or one environment's counts and times).
 */
export function summaryColumns(column: (field: string) => string): string {
  const fields = [
    'id',
    'title',
    'severity',
    'priority',
    'tags',
    'status',
    'regressions',
    'last_regressed_at',
    'occurrence_count',
    'description_type',
    'created_at',
    'last_seen_at',
    'severity_rank',
    'priority_rank',
    'file_name',
    'line_number',
  ];
  const named = fields.map((f) => (column(f) === f ? f : `${column(f)} AS ${f}`));
  return `${named.join(', ')}, substr(${column('description')}, 1, ${DESCRIPTION_HEAD}) AS description_head`;
}

/**
 * The line of `file` in the first stack frame that names it (`at fn (file:line:col)`,
 * `fn@file:line:col`, `file:line`), else null: JavaScript SDKs send a file without its line.
 */
export function lineIn(description: string | null, file: string | null): number | null {
  if (description === null || file === null || file === '') return null;
  let at = description.indexOf(file);
  while (at !== -1) {
    const m = /^:(\d{1,9})(?::\d+)?(?:\)|\s|$)/.exec(
      description.slice(at + file.length, at + file.length + 24),
    );
    if (m) return Number(m[1]);
    at = description.indexOf(file, at + 1);
  }
  return null;
}

export const toSummary = (r: SummaryRow, key: SortKey): CardSummary => ({
  id: r.id,
  title: r.title,
  severity: r.severity,
  priority: r.priority,
  status: r.status,
  regressions: r.regressions,
  lastRegressedAt: r.last_regressed_at,
  tags: JSON.parse(r.tags) as string[],
  occurrenceCount: r.occurrence_count,
  descriptionType: r.description_type,
  firstSeenAt: r.created_at,
  lastSeenAt: r.last_seen_at,
  fileName: r.file_name,
  lineNumber: r.line_number ?? lineIn(r.description_head, r.file_name),
  key,
});

/** A card row as the card page shows it; `eventsToday` counts the UTC `day`. */
export const toBoardCard = (r: CardRow, day: number): BoardCard => ({
  id: r.id,
  projectId: r.project_id,
  title: r.title,
  description: r.description,
  descriptionType: r.description_type,
  severity: r.severity,
  priority: r.priority,
  status: r.status,
  regressions: r.regressions,
  lastRegressedAt: r.last_regressed_at,
  tags: JSON.parse(r.tags) as string[],
  occurrenceCount: r.occurrence_count,
  fileName: r.file_name,
  lineNumber: r.line_number,
  firstSeenAt: r.created_at,
  lastSeenAt: r.last_seen_at,
  eventsToday: r.usage_day === day ? r.usage_count : 0,
});

/** A `card_events` row. */
export interface CardEventRow {
  id: number;
  at: number;
  kind: CardEvent['kind'];
  from_status: CardEvent['from'];
  to_status: CardEvent['to'];
  actor: string | null;
  release: string | null;
  env: string | null;
  ordering: CardEvent['ordering'];
}

/** The columns of `CardEventRow`. */
export const CARD_EVENT_COLUMNS =
  'id, at, kind, from_status, to_status, actor, release, env, ordering';

export const toCardEvent = (r: CardEventRow): CardEvent => ({
  id: r.id,
  at: r.at,
  kind: r.kind,
  from: r.from_status,
  to: r.to_status,
  actor: r.actor,
  release: r.release,
  env: r.env,
  ordering: r.ordering,
});

/** The resolution a status change writes: an environment and release for `done`, else none. */
export const resolutionOf = (c: StatusChange): [string | null, string | null] =>
  c.status === RESOLVED_STATUS ? [c.env ?? null, c.release ?? null] : [null, null];

/** Cards per status from `card_status_counts` rows, every status present (zero when none). */
export function statusCounts(rows: readonly { status: string; count: number }[]) {
  const counts = Object.fromEntries(CARD_STATUSES.map((s) => [s, 0])) as Record<
    CardSummary['status'],
    number
  >;
  for (const r of rows) if (r.status in counts) counts[r.status as CardSummary['status']] = r.count;
  return counts;
}

/** A variant row with its body possibly cut, and the body's full length. */
export type BoardVariantRow = StoredVariantRow & { description_length: number | null };

export const toBoardVariant = (r: BoardVariantRow): BoardVariant => ({
  id: r.id,
  title: r.title,
  description: r.description,
  descriptionLength: r.description_length ?? 0,
  fileName: r.file_name,
  lineNumber: r.line_number,
  count: r.count,
  firstSeenAt: r.first_seen_at,
  lastSeenAt: r.last_seen_at,
  aggregate: r.aggregate === 1,
});

/**
 * A project's cards (SQL, over `projects p`): the sum of its per-status counts, which triggers keep
 * (migration 4), so no page counts cards one by one.
 */
export const CARD_COUNT =
  '(SELECT COALESCE(SUM(s.count), 0) FROM card_status_counts s WHERE s.project_id = p.id)';

/** Escapes LIKE wildcards; the pattern uses `ESCAPE '\'`. */
export const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A keyset page from `limit + 1` rows read in the page's direction: in id order, and whether more. */
export function pageOf<T>(rows: T[], page: { before?: number; limit: number }): Paged<T> {
  const more = rows.length > page.limit;
  const kept = rows.slice(0, page.limit);
  if (page.before !== undefined) kept.reverse();
  return { rows: kept, more };
}

/** The id comparison and order of a keyset page by id. */
export const idKeyset = (page: IdPage) =>
  page.before !== undefined
    ? { op: '<', order: 'DESC', from: page.before }
    : { op: '>', order: 'ASC', from: page.after ?? 0 };

/** Account totals row as both stores read it. */
export interface AccountTotals {
  projectCount: number;
  activeProjects: number;
  eventsToday: number;
}

/** Rows of (env, status, count) by env, as environments with their counts per status. */
export function environments(
  rows: readonly { env: string; status: string; count: number }[],
): BoardEnvironment[] {
  const byName = new Map<string, { status: string; count: number }[]>();
  for (const r of rows) byName.set(r.env, [...(byName.get(r.env) ?? []), r]);
  return [...byName].map(([name, counts]) => ({ name, statusCounts: statusCounts(counts) }));
}

/** Counts per hour from `fromHour` to `toHour`, zeros included. */
export function perHour(
  rows: readonly { hour: number; count: number }[],
  fromHour: number,
  toHour: number,
): number[] {
  const counts = new Array<number>(Math.max(0, toHour - fromHour + 1)).fill(0);
  for (const r of rows) counts[Number(r.hour) - fromHour] = r.count;
  return counts;
}
