// Outcome counters behind `flush()`'s result.
import type { FlushResult } from './types.ts';

export const emptyResult = (): FlushResult => ({
  sent: 0,
  deduplicated: 0,
  failed: 0,
  dropped: { quota: 0, paused: 0, archived: 0, overflow: 0, sampled: 0, beforeSend: 0 },
});

export type Bucket = 'sent' | 'deduplicated' | 'failed' | keyof FlushResult['dropped'];

export function count(r: FlushResult, bucket: Bucket): void {
  if (bucket in r.dropped) r.dropped[bucket as keyof FlushResult['dropped']]++;
  else r[bucket as 'sent']++;
}
