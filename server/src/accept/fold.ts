import { detectDescriptionType } from '../core/detect.ts';
import { sha256Hex } from '../core/hash.ts';
import { cardSchema } from '../generated/schema.gen.ts';
import { utcDay } from './admit.ts';
import { atOrAfter, environmentOf, releaseOf } from './releases.ts';
import type {
  AcceptConfig,
  CardState,
  CardStatus,
  Folded,
  NewCard,
  Regression,
  TaskReport,
  VariantSighting,
} from './types.ts';

/** The board statuses, in the spec's order (`Card.status`). */
export const CARD_STATUSES: readonly CardStatus[] = cardSchema.properties.status.enum;
/** Ingestion creates a card in `todo` (contract 2.3), and reopens a resolved one into it. */
export const NEW_STATUS: CardStatus = 'todo';
/** A report of a card in this status is a regression: the error came back after a fix. */
export const RESOLVED_STATUS: CardStatus = 'done';
/** A card nobody wants to hear of: it keeps counting, never reopens and never notifies. */
export const IGNORED_STATUS: CardStatus = 'ignored';

/** A release's place in the order the project first saw releases; null: never seen. */
export type FirstSeen = (release: string) => number | null;

// A report is hashed by the store that reads for it and again by its decision: once per report.
const hashes = new WeakMap<object, string | null>();
const identities = new WeakMap<TaskReport, string>();

/** The description's match key: sha256 hex of a non-blank description, else null (never matches). */
export function descriptionHash(report: Pick<TaskReport, 'description'>): string | null {
  let hash = hashes.get(report);
  if (hash === undefined) {
    const d = report.description;
    hash = d === null || d.trim() === '' ? null : sha256Hex(d);
    hashes.set(report, hash);
  }
  return hash;
}

/** Variant identity (contract 2.4): title + description + file_name + line_number, absent included. */
export function variantIdentity(report: TaskReport): string {
  let identity = identities.get(report);
  if (identity === undefined) {
    identity = sha256Hex(
      JSON.stringify([report.title, report.description, report.file_name, report.line_number]),
    );
    identities.set(report, identity);
  }
  return identity;
}

/**
 * Merges tags in order of first appearance, keeping at most `cap`: a Set, so the work is linear
 * in the tags of the card and of the report. Returns null when nothing changed.
 */
export function mergeTags(
  current: readonly string[],
  incoming: readonly string[],
  cap = Number.POSITIVE_INFINITY,
): string[] | null {
  if (current.length >= cap || incoming.length === 0) return null;
  const merged = new Set(current);
  for (const tag of incoming) {
    if (merged.size >= cap) break;
    merged.add(tag);
  }
  return merged.size === current.length ? null : [...merged];
}

/**
 * Folds an admitted report into `card` (the project's card with the same title, else the same
 * non-blank description; contract 3 and 4 "Deduplication rules"), or describes the new card when
 * there is none. Title, description, severity and priority are frozen from the first report.
 * A card marked `done` that is reported again regresses (`regressionOf`): back to `todo`, one more
 * regression, the report's release and environment recorded. Other statuses stay as set (an
 * `ignored` card keeps counting). New cards and regressions are the notices a project's watchers
 * get. `firstSeen` places releases for a card resolved in one (never seen, by default).
 */
export function fold(
  config: Pick<AcceptConfig, 'tagsPerCard'>,
  card: CardState | null,
  report: TaskReport,
  now: number,
  firstSeen: FirstSeen = () => null,
): Folded {
  const day = utcDay(now);
  const variant: VariantSighting = {
    identity: variantIdentity(report),
    title: report.title,
    description: report.description,
    fileName: report.file_name,
    lineNumber: report.line_number,
    at: now,
  };
  const cap = config.tagsPerCard ?? Number.POSITIVE_INFINITY;
  if (!card) {
    return {
      kind: 'created',
      writes: {
        card: {
          kind: 'insert',
          card: {
            title: report.title,
            description: report.description,
            descriptionHash: descriptionHash(report),
            descriptionType: detectDescriptionType(report.description),
            priority: report.priority,
            severity: report.severity,
            tags: mergeTags([], report.tags, cap) ?? [],
            status: NEW_STATUS,
            fileName: report.file_name,
            lineNumber: report.line_number,
            createdAt: now,
            lastSeenAt: now,
            occurrenceCount: 1,
            usageDay: day,
            usageCount: 1,
          },
        },
        variant,
      },
      status: NEW_STATUS,
      notice: {
        kind: 'new',
        release: releaseOf(report.tags),
        environment: environmentOf(report.tags),
      },
    };
  }
  const regression = regressionOf(card, report, now, firstSeen);
  return {
    kind: 'deduplicated',
    writes: {
      card: {
        kind: 'update',
        card: {
          id: card.id,
          occurrenceCount: card.occurrenceCount + 1,
          lastSeenAt: Math.max(card.lastSeenAt, now),
          tags: mergeTags(card.tags, report.tags, cap),
          usageDay: day,
          usageCount: card.usageDay === day ? card.usageCount + 1 : 1,
          regression,
        },
      },
      variant,
    },
    status: regression ? regression.to : card.status,
    notice: regression
      ? { kind: 'regression', release: regression.release, environment: regression.environment }
      : null,
  };
}

/**
 * A report reopens a `done` card only from the environment it was resolved in (any, when none was
 * named) and, when it was resolved in a release, only from that release or a newer one
 * (`atOrAfter`). A report from elsewhere still counts, and leaves the card done.
 */
export function regressionOf(
  card: CardState,
  report: TaskReport,
  now: number,
  firstSeen: FirstSeen,
): Regression | null {
  if (card.status !== RESOLVED_STATUS) return null;
  const environment = environmentOf(report.tags);
  if (card.resolvedEnv !== null && card.resolvedEnv !== environment) return null;
  const release = releaseOf(report.tags);
  let ordering: Regression['ordering'] = null;
  if (card.resolvedRelease !== null) {
    ordering = atOrAfter(release, card.resolvedRelease, firstSeen);
    if (ordering === null) return null;
  }
  return {
    from: card.status,
    to: NEW_STATUS,
    regressions: card.regressions + 1,
    at: now,
    release,
    environment,
    ordering,
  };
}

/** What is known of a card just inserted from `card`, under `id` (a store's id or a batch's ref). */
export function newCardState(id: number, card: NewCard): CardState {
  return {
    id,
    status: card.status,
    regressions: 0,
    tags: card.tags,
    occurrenceCount: card.occurrenceCount,
    lastSeenAt: card.lastSeenAt,
    usageDay: card.usageDay,
    usageCount: card.usageCount,
    resolvedEnv: null,
    resolvedRelease: null,
  };
}
