import {
  PENDING_BASE,
  type BatchView,
  type VariantFold,
  type VariantInsert,
} from './batch-types.ts';
import { planPrune } from './prune.ts';
import type { VariantSighting, VariantState } from './types.ts';

/** A variant as the batch knows it: a stored one it saw, or one it creates. */
interface Sighted {
  ref: number;
  stored: boolean;
  /** Sightings in this batch (a new variant: all of its count). */
  add: number;
  firstSeenAt: number;
  lastSeenAt: number;
  removed: boolean;
  sighting?: VariantSighting;
}

/** One card's variants within the batch. */
interface CardVariants {
  byIdentity: Map<string, Sighted>;
  byRef: Map<number, Sighted>;
  /** Named variants after the batch so far, once it was needed. */
  named?: number;
}

/**
 * Variants beneath the batch's cards (contract 2.4), decided in memory over the store's committed
 * state: a sighting of a known identity adds one; a novel one is created, and once the card holds
 * more than `cap` named variants `planPrune` picks the least recently seen, whose counts fold
 * into the card's `Other variants` row. Creation order gives new rows their ids, so the order of
 * `planPrune`'s ties is the order the store will write.
 */
export class BatchVariants {
  readonly #view: BatchView;
  readonly #cap: number;
  readonly #cards = new Map<number, CardVariants>();
  readonly #created: Sighted[] = [];
  readonly #creatingCard = new Map<Sighted, number>();
  readonly #removedStored = new Set<number>();
  readonly #folds = new Map<number, VariantFold>();
  #next = PENDING_BASE;

  constructor(view: BatchView, cap: number) {
    this.#view = view;
    this.#cap = cap;
  }

  /** One sighting beneath `cardRef`; `isNew`: the card is created by this batch. */
  record(cardRef: number, isNew: boolean, sighting: VariantSighting): void {
    let variants = this.#cards.get(cardRef);
    if (!variants) {
      variants = { byIdentity: new Map(), byRef: new Map() };
      this.#cards.set(cardRef, variants);
    }
    const at = sighting.at;
    const seen = variants.byIdentity.get(sighting.identity);
    if (seen && !seen.removed) {
      seen.add += 1;
      seen.lastSeenAt = Math.max(seen.lastSeenAt, at);
      return;
    }
    const storedId = isNew ? null : this.#view.variantId(cardRef, sighting.identity);
    if (storedId !== null && !this.#removedStored.has(storedId)) {
      const known: Sighted = {
        ref: storedId,
        stored: true,
        add: 1,
        firstSeenAt: at,
        lastSeenAt: at,
        removed: false,
      };
      variants.byIdentity.set(sighting.identity, known);
      variants.byRef.set(storedId, known);
      return;
    }
    this.#create(cardRef, isNew, variants, sighting);
  }

  /** Named variants the card holds after the batch, when the batch counted them. */
  readonly namedAfter = (cardRef: number): number | undefined => this.#cards.get(cardRef)?.named;

  writes() {
    const inserts: VariantInsert[] = this.#created
      .filter((v) => !v.removed)
      .map((v) => ({
        ref: v.ref,
        cardRef: this.#creatingCard.get(v)!,
        sighting: v.sighting!,
        count: v.add,
        firstSeenAt: v.firstSeenAt,
        lastSeenAt: v.lastSeenAt,
      }));
    const adds: { id: number; add: number; lastSeenAt: number }[] = [];
    for (const variants of this.#cards.values()) {
      for (const v of variants.byRef.values()) {
        if (v.stored && !v.removed) adds.push({ id: v.ref, add: v.add, lastSeenAt: v.lastSeenAt });
      }
    }
    return {
      inserts,
      adds,
      removals: [...this.#removedStored],
      folds: [...this.#folds.values()],
    };
  }

  /** A novel identity: a new variant, and a prune once the card holds more than the cap. */
  #create(cardRef: number, isNew: boolean, variants: CardVariants, sighting: VariantSighting) {
    const at = sighting.at;
    const fresh: Sighted = {
      ref: this.#next++,
      stored: false,
      add: 1,
      firstSeenAt: at,
      lastSeenAt: at,
      removed: false,
      sighting,
    };
    variants.byIdentity.set(sighting.identity, fresh);
    variants.byRef.set(fresh.ref, fresh);
    this.#created.push(fresh);
    this.#creatingCard.set(fresh, cardRef);
    variants.named = (variants.named ?? (isNew ? 0 : this.#view.namedCount(cardRef))) + 1;
    if (variants.named > this.#cap) this.#prune(cardRef, isNew, variants);
  }

  /** `planPrune` over the card's named variants (stored and new); the pruned fold into one row. */
  #prune(cardRef: number, isNew: boolean, variants: CardVariants) {
    const plan = planPrune(this.#named(isNew, cardRef, variants), this.#cap);
    for (const id of plan.remove) {
      const seen = variants.byRef.get(id);
      if (seen) seen.removed = true;
      if (id < PENDING_BASE) this.#removedStored.add(id);
    }
    if (plan.fold) {
      const f = this.#folds.get(cardRef);
      if (!f) this.#folds.set(cardRef, { cardRef, ...plan.fold });
      else {
        f.count += plan.fold.count;
        f.firstSeenAt = Math.min(f.firstSeenAt, plan.fold.firstSeenAt);
        f.lastSeenAt = Math.max(f.lastSeenAt, plan.fold.lastSeenAt);
      }
    }
    variants.named = Math.min(variants.named!, this.#cap);
  }

  /** The card's named variants as they stand in the batch: stored ones with their sightings, new ones. */
  #named(isNew: boolean, cardRef: number, variants: CardVariants): VariantState[] {
    const list: VariantState[] = [];
    if (!isNew) {
      for (const v of this.#view.namedVariants(cardRef)) {
        if (this.#removedStored.has(v.id)) continue;
        const seen = variants.byRef.get(v.id);
        list.push({
          id: v.id,
          count: v.count + (seen?.add ?? 0),
          firstSeenAt: v.firstSeenAt,
          lastSeenAt: Math.max(v.lastSeenAt, seen?.lastSeenAt ?? v.lastSeenAt),
        });
      }
    }
    for (const v of variants.byRef.values()) {
      if (!v.stored && !v.removed)
        list.push({
          id: v.ref,
          count: v.add,
          firstSeenAt: v.firstSeenAt,
          lastSeenAt: v.lastSeenAt,
        });
    }
    return list;
  }
}
