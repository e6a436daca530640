export { type Acceptance, createAcceptance } from './acceptance.ts';
export { crossed, utcDay } from './admit.ts';
export { rateOf, type Take, takeToken } from './bucket.ts';
export {
  CARD_STATUSES,
  descriptionHash,
  IGNORED_STATUS,
  mergeTags,
  NEW_STATUS,
  type FirstSeen,
  newCardState,
  regressionOf,
  RESOLVED_STATUS,
  variantIdentity,
} from './fold.ts';
export {
  atOrAfter,
  compareSemver,
  DEFAULT_ENV,
  environmentOf,
  newestRelease,
  parseSemver,
  releaseOf,
} from './releases.ts';
export { planPrune } from './prune.ts';
export { WARNING_THRESHOLDS } from '../generated/limits.gen.ts';
export type * from './types.ts';
export { createBatch } from './batch.ts';
export { PENDING_BASE } from './batch-types.ts';
export type * from './batch-types.ts';
