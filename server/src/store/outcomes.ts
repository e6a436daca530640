import { type Decided, PENDING_BASE, type QuotaWarning } from '../accept/index.ts';
import { iso } from './rows.ts';
import type { Card, IngestOutcome } from './types.ts';

/** A stored card's fields that never change after its first report (what an answer shows). */
export interface CardFacts {
  title: string;
  description_type: Card['description_type'];
  priority: Card['priority'];
  severity: Card['severity'];
  file_name: string | null;
  line_number: number | null;
  created_at: number;
}

/** What a batch's write tells its outcomes: new cards' ids by ref, and which warnings sent mail. */
export interface WriteResult {
  ids: Map<number, number>;
  mailed: Set<QuotaWarning[]>;
}

/** An outcome that learns its card's id and mail flag once the batch is written. */
export interface PendingOutcome {
  settle(result: WriteResult): void;
}

/**
 * The `IngestOutcome` of a decided report. Its `card` is built only when read (a shown answer),
 * after the commit: from the batch's new card, or the stored card's facts and description.
 */
export function outcomeOf(
  decided: Decided,
  facts: (id: number) => CardFacts,
  description: (id: number) => string | null,
): { outcome: IngestOutcome; pending?: PendingOutcome } {
  const { decision } = decided;
  if (decision.kind === 'dropped' || decision.kind === 'rate_limited') return { outcome: decision };
  const state = decided.card!;
  const created = decided.insert?.card;
  let id = decided.cardRef!;
  const outcome = {
    kind: decision.kind,
    rate: decision.rate,
    mailQueued: false,
    get card(): Card {
      const f = created ?? facts(id);
      return {
        id,
        title: f.title,
        description: created ? created.description : description(id),
        description_type: created ? created.descriptionType : (f as CardFacts).description_type,
        priority: f.priority,
        severity: f.severity,
        tags: [...state.tags],
        status: state.status,
        occurrence_count: state.occurrenceCount,
        created_at: iso(created ? created.createdAt : (f as CardFacts).created_at),
        last_seen_at: iso(state.lastSeenAt),
        file_name: created ? created.fileName : (f as CardFacts).file_name,
        line_number: created ? created.lineNumber : (f as CardFacts).line_number,
      };
    },
  };
  return {
    outcome,
    pending: {
      settle(result) {
        if (id >= PENDING_BASE) id = result.ids.get(id)!;
        if (decided.warnings) outcome.mailQueued = result.mailed.has(decided.warnings);
      },
    },
  };
}
