import type { PrunePlan, VariantState } from './types.ts';

/**
 * Variants over the cap (contract 2.4): the least recently seen (ties: lowest id) go, their
 * counts fold into the `Other variants` row. `variants` are the card's named variants (never the
 * aggregate row), in any order.
 */
export function planPrune(variants: readonly VariantState[], cap: number): PrunePlan {
  const excess = variants.length - cap;
  if (excess <= 0) return { remove: [], fold: null };
  const victims = [...variants]
    .sort((a, b) => a.lastSeenAt - b.lastSeenAt || a.id - b.id)
    .slice(0, excess);
  return {
    remove: victims.map((v) => v.id),
    fold: {
      count: victims.reduce((n, v) => n + v.count, 0),
      firstSeenAt: Math.min(...victims.map((v) => v.firstSeenAt)),
      lastSeenAt: Math.max(...victims.map((v) => v.lastSeenAt)),
    },
  };
}
