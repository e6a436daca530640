import { taskReportSchema } from '../generated/schema.gen.ts';
import type { BoardVariant } from './board-types.ts';
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

/** Escapes LIKE wildcards; the pattern uses `ESCAPE '\'`. */
export const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
