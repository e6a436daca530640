import { admit } from './admit.ts';
import { rateOf } from './bucket.ts';
import { fold } from './fold.ts';
import type {
  AcceptConfig,
  AcceptRead,
  AcceptResult,
  Admission,
  BucketState,
  CardState,
  CounterRead,
  Folded,
  Plan,
  RateState,
  TaskReport,
} from './types.ts';

/** The acceptance decision bound to its rules; every method is pure (no I/O, no clock). */
export interface Acceptance {
  /** One report, start to end: counters and matched card in, decision and writes out. */
  accept(read: AcceptRead, report: TaskReport, now: number): AcceptResult;
  /** The first half: state, quota, then burst, on the project's counters alone. */
  admit(read: CounterRead, now: number): Admission;
  /** The second half, for an admitted report: the card to insert or update, and the variant. */
  fold(card: CardState | null, report: TaskReport, now: number): Folded;
  /** Rate headers without spending (answers that are not ingested). */
  rate(bucket: BucketState | null, plan: Plan, now: number): RateState;
}

/**
 * A store reads the project's counters (and the card by title, else by description), calls
 * `accept` (or `admit`, then `fold` once admitted, to skip the card lookup for drops), and applies
 * the writes in the same transaction before answering.
 */
export function createAcceptance(config: AcceptConfig): Acceptance {
  return {
    accept(read, report, now) {
      const admission = admit(config, read, now);
      if (admission.decision.kind !== 'admitted') {
        return { decision: admission.decision, writes: {} };
      }
      const folded = fold(config, read.card, report, now);
      return {
        decision: { kind: folded.kind, rate: admission.decision.rate },
        writes: { counters: admission.counters, card: folded.writes },
      };
    },
    admit: (read, now) => admit(config, read, now),
    fold: (card, report, now) => fold(config, card, report, now),
    rate: (bucket, plan, now) => rateOf(bucket, config.plans[plan].burstPerMinute, now),
  };
}
