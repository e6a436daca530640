import type { BatchView, BatchWrites } from './batch-types.ts';
import type { AuthKey } from '../domain/types.ts';
import type { BucketState, CounterRead, CounterWrites } from './types.ts';

/**
 * A batch's counters: each project's state and burst bucket, the accounts' active projects and
 * the day's usage totals, read from the view once and then kept as the batch's reports spend
 * them; the usage rows to add and the quota thresholds crossed.
 */
export class BatchCounters {
  readonly #view: BatchView;
  readonly #buckets = new Map<number, BucketState | null>();
  /** Each touched project's bucket after the batch. */
  readonly #spent = new Map<number, BucketState>();
  readonly #states = new Map<number, CounterRead['projectState']>();
  readonly #active = new Map<number, number>();
  /** `account:day` and `account:day:project` -> accepted events. */
  readonly #totals = new Map<string, number>();
  readonly #usage = new Map<string, [number, number, number, number]>();
  readonly #warnings: BatchWrites['warnings'] = [];

  constructor(view: BatchView) {
    this.#view = view;
  }

  /** What `admit` decides on for this key's project on `day`. */
  read(key: AuthKey, day: number): CounterRead {
    const accKey = `${key.accountId}:${day}`;
    const projKey = `${accKey}:${key.projectId}`;
    if (!this.#totals.has(projKey)) {
      const stored = this.#view.counters(key.accountId, key.projectId, day);
      if (!this.#states.has(key.projectId)) {
        this.#states.set(key.projectId, stored.projectState);
        this.#buckets.set(key.projectId, stored.bucket);
      }
      if (!this.#active.has(key.accountId)) this.#active.set(key.accountId, stored.activeProjects);
      if (!this.#totals.has(accKey)) this.#totals.set(accKey, stored.accountUsage);
      this.#totals.set(projKey, stored.projectUsage);
    }
    return {
      plan: key.plan,
      projectState: this.#states.get(key.projectId)!,
      bucket: this.#buckets.get(key.projectId)!,
      accountUsage: this.#totals.get(accKey)!,
      projectUsage: this.#totals.get(projKey)!,
      activeProjects: this.#active.get(key.accountId)!,
    };
  }

  /** An admitted report spends: its token, one event of the day's usage, thresholds crossed. */
  spend(key: AuthKey, day: number, read: CounterRead, counters: CounterWrites): void {
    const { bucket, usageDay, warnings: crossed } = counters;
    this.#buckets.set(key.projectId, bucket);
    this.#spent.set(key.projectId, bucket);
    this.#totals.set(`${key.accountId}:${day}`, read.accountUsage + 1);
    this.#totals.set(`${key.accountId}:${day}:${key.projectId}`, read.projectUsage + 1);
    const usageKey = `${key.accountId}:${usageDay}:${key.projectId}`;
    const row = this.#usage.get(usageKey);
    if (row) row[3] += 1;
    else this.#usage.set(usageKey, [key.accountId, usageDay, key.projectId, 1]);
    if (crossed.length > 0) this.#warnings.push({ accountId: key.accountId, warnings: crossed });
  }

  writes(): Pick<BatchWrites, 'buckets' | 'usage' | 'warnings'> {
    return { buckets: this.#spent, usage: [...this.#usage.values()], warnings: this.#warnings };
  }
}
