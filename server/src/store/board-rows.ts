import { taskReportSchema } from '../generated/schema.gen.ts';
import type { BoardVariant, IdPage, Paged } from './board-types.ts';
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
  | 'occurrence_count'
  | 'description_type'
  | 'created_at'
  | 'last_seen_at'
> & { severity_rank: number; priority_rank: number };

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
 * Cards are counted up to this many (and one more, shown as `10,000+`) on the accounts pages, so a
 * page's work does not grow with the boards it lists.
 */
export const CARD_COUNT_CAP = 10_000;

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
