import {
  type BatchView,
  type BatchWrites,
  type CardInsert,
  type EnvCount,
  PENDING_BASE,
} from './batch-types.ts';
import { descriptionHash, newCardState } from './fold.ts';
import type {
  CardNotice,
  CardState,
  CardUpdate,
  NewCard,
  Regression,
  TaskReport,
} from './types.ts';

/** A card as the batch holds it: one object per card, however the reports found it. */
export interface WorkCard {
  ref: number;
  projectId: number;
  state: CardState;
  insert?: CardInsert;
  changed: boolean;
  tagsChanged: boolean;
}

/**
 * A batch's cards: found by title, then by description, among the stored ones (asked of the view
 * once) and those the batch made; new cards get refs from `PENDING_BASE`; their counters, tags,
 * regressions, notices and occurrences (per environment and minute) as the batch's reports fold
 * into them.
 */
export class BatchCards {
  readonly #view: BatchView;
  readonly #cards = new Map<number, WorkCard>();
  readonly #byTitle = new Map<string, WorkCard | null>();
  readonly #byDescription = new Map<string, WorkCard | null>();
  readonly #inserted: WorkCard[] = [];
  readonly #regressions: { id: number; regression: Regression }[] = [];
  readonly #notices: BatchWrites['notices'] = [];
  readonly #occurrences = new Map<string, BatchWrites['occurrences'][number]>();
  readonly #envCounts = new Map<string, EnvCount>();
  #nextCard = PENDING_BASE;

  constructor(view: BatchView) {
    this.#view = view;
  }

  /** Title first (a stored card, then one this batch made), then the non-blank description. */
  find(projectId: number, report: TaskReport): WorkCard | null {
    const titleKey = `${projectId}\0${report.title}`;
    let card = this.#byTitle.get(titleKey);
    if (card === undefined) {
      card = this.#stored(projectId, this.#view.cardByTitle(projectId, report.title));
      this.#byTitle.set(titleKey, card);
    }
    if (card) return card;
    const hash = descriptionHash(report);
    if (hash === null) return null;
    const descKey = `${projectId}\0${hash}\0${report.description}`;
    card = this.#byDescription.get(descKey);
    if (card === undefined) {
      const found = this.#view.cardByDescription(projectId, hash, report.description!);
      card = this.#stored(projectId, found);
      this.#byDescription.set(descKey, card);
    }
    return card;
  }

  /** A card the report creates; later reports of the batch find it by title or description. */
  insert(projectId: number, c: NewCard): WorkCard {
    const ref = this.#nextCard++;
    const insert: CardInsert = { ref, projectId, card: c };
    const card: WorkCard = {
      ref,
      projectId,
      insert,
      changed: false,
      tagsChanged: false,
      state: newCardState(ref, c),
    };
    this.#cards.set(ref, card);
    this.#inserted.push(card);
    this.#byTitle.set(`${projectId}\0${c.title}`, card);
    if (c.descriptionHash !== null) {
      const descKey = `${projectId}\0${c.descriptionHash}\0${c.description}`;
      if (!this.#byDescription.get(descKey)) this.#byDescription.set(descKey, card);
    }
    return card;
  }

  /** A report folded into a card the batch holds: its counters, tags and a regression. */
  update(card: WorkCard, u: CardUpdate): void {
    const state = card.state;
    state.occurrenceCount = u.occurrenceCount;
    state.lastSeenAt = u.lastSeenAt;
    state.usageDay = u.usageDay;
    state.usageCount = u.usageCount;
    if (u.tags) {
      state.tags = u.tags;
      card.tagsChanged = true;
    }
    if (u.regression) {
      state.status = u.regression.to;
      state.regressions = u.regression.regressions;
      state.resolvedEnv = null;
      state.resolvedRelease = null;
      this.#regressions.push({ id: card.ref, regression: u.regression });
    }
    card.changed = true;
  }

  notice(projectId: number, card: WorkCard, notice: CardNotice, at: number): void {
    this.#notices.push({ projectId, cardRef: card.ref, notice, at });
  }

  /**
   * One more admitted report of the card in its environment: its count, first and last sight
   * there, and its count in that environment and UTC minute.
   */
  occurrence(projectId: number, card: WorkCard, environment: string, now: number): void {
    const counted = this.#envCounts.get(`${card.ref}\0${environment}`);
    if (counted) {
      counted.count += 1;
      counted.lastSeenAt = Math.max(counted.lastSeenAt, now);
    } else {
      this.#envCounts.set(`${card.ref}\0${environment}`, {
        cardRef: card.ref,
        env: environment,
        count: 1,
        firstSeenAt: now,
        lastSeenAt: now,
      });
    }
    const minute = Math.floor(now / 60_000);
    const key = `${card.ref}\0${minute}\0${environment ?? ''}`;
    const seen = this.#occurrences.get(key);
    if (seen) seen.count += 1;
    else
      this.#occurrences.set(key, { projectId, cardRef: card.ref, environment, minute, count: 1 });
  }

  writes(): Pick<
    BatchWrites,
    'cardInserts' | 'cardUpdates' | 'regressions' | 'notices' | 'occurrences' | 'envCounts'
  > {
    return {
      cardInserts: this.#inserted.map(({ insert, state }) => ({
        ...insert!,
        card: {
          ...insert!.card,
          tags: state.tags as string[],
          occurrenceCount: state.occurrenceCount,
          lastSeenAt: state.lastSeenAt,
          usageDay: state.usageDay!,
          usageCount: state.usageCount,
        },
      })),
      cardUpdates: [...this.#cards.values()]
        .filter((c) => c.changed && !c.insert)
        .map(({ ref, state, tagsChanged }) => ({
          id: ref,
          occurrenceCount: state.occurrenceCount,
          lastSeenAt: state.lastSeenAt,
          tags: tagsChanged ? (state.tags as string[]) : null,
          usageDay: state.usageDay!,
          usageCount: state.usageCount,
        })),
      regressions: this.#regressions,
      notices: this.#notices,
      occurrences: [...this.#occurrences.values()],
      envCounts: [...this.#envCounts.values()],
    };
  }

  #stored(projectId: number, state: CardState | null): WorkCard | null {
    if (!state) return null;
    let card = this.#cards.get(state.id);
    if (!card) {
      card = { ref: state.id, projectId, state: { ...state }, changed: false, tagsChanged: false };
      this.#cards.set(state.id, card);
    }
    return card;
  }
}
