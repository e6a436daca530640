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
export function createBatchVariants(view: BatchView, cap: number) {
  const cards = new Map<number, CardVariants>();
  const created: Sighted[] = [];
  const creatingCard = new Map<Sighted, number>();
  const removedStored = new Set<number>();
  const folds = new Map<number, VariantFold>();
  let next = PENDING_BASE;

  const prune = (cardRef: number, isNew: boolean, variants: CardVariants) => {
    const list: VariantState[] = [];
    if (!isNew) {
      for (const v of view.namedVariants(cardRef)) {
        if (removedStored.has(v.id)) continue;
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
    const plan = planPrune(list, cap);
    for (const id of plan.remove) {
      const seen = variants.byRef.get(id);
      if (seen) seen.removed = true;
      if (id < PENDING_BASE) removedStored.add(id);
    }
    if (plan.fold) {
      const f = folds.get(cardRef);
      if (!f) folds.set(cardRef, { cardRef, ...plan.fold });
      else {
        f.count += plan.fold.count;
        f.firstSeenAt = Math.min(f.firstSeenAt, plan.fold.firstSeenAt);
        f.lastSeenAt = Math.max(f.lastSeenAt, plan.fold.lastSeenAt);
      }
    }
    variants.named = Math.min(variants.named!, cap);
  };

  return {
    /** One sighting beneath `cardRef`; `isNew`: the card is created by this batch. */
    record(cardRef: number, isNew: boolean, sighting: VariantSighting) {
      let variants = cards.get(cardRef);
      if (!variants) {
        variants = { byIdentity: new Map(), byRef: new Map() };
        cards.set(cardRef, variants);
      }
      const at = sighting.at;
      const seen = variants.byIdentity.get(sighting.identity);
      if (seen && !seen.removed) {
        seen.add += 1;
        seen.lastSeenAt = Math.max(seen.lastSeenAt, at);
        return;
      }
      const storedId = isNew ? null : view.variantId(cardRef, sighting.identity);
      if (storedId !== null && !removedStored.has(storedId)) {
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
      const fresh: Sighted = {
        ref: next++,
        stored: false,
        add: 1,
        firstSeenAt: at,
        lastSeenAt: at,
        removed: false,
        sighting,
      };
      variants.byIdentity.set(sighting.identity, fresh);
      variants.byRef.set(fresh.ref, fresh);
      created.push(fresh);
      creatingCard.set(fresh, cardRef);
      variants.named = (variants.named ?? (isNew ? 0 : view.namedCount(cardRef))) + 1;
      if (variants.named > cap) prune(cardRef, isNew, variants);
    },
    /** Named variants the card holds after the batch, when the batch counted them. */
    namedAfter: (cardRef: number) => cards.get(cardRef)?.named,
    writes() {
      const inserts: VariantInsert[] = created
        .filter((v) => !v.removed)
        .map((v) => ({
          ref: v.ref,
          cardRef: creatingCard.get(v)!,
          sighting: v.sighting!,
          count: v.add,
          firstSeenAt: v.firstSeenAt,
          lastSeenAt: v.lastSeenAt,
        }));
      const adds: { id: number; add: number; lastSeenAt: number }[] = [];
      for (const variants of cards.values()) {
        for (const v of variants.byRef.values()) {
          if (v.stored && !v.removed)
            adds.push({ id: v.ref, add: v.add, lastSeenAt: v.lastSeenAt });
        }
      }
      return { inserts, adds, removals: [...removedStored], folds: [...folds.values()] };
    },
  };
}
