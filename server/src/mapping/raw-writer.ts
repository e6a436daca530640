// The raw frames of mapped reports, written in batches off the report's path: rows queued in one
// event-loop turn are one write in the next (the board reads them; a report's answer never waits
// for them). A variant identity this process wrote already is not queued again.
import type { RawReport, SourceMapStore } from '../store/sourcemap-types.ts';

/** Identities remembered as written (then the memory starts over; the store ignores repeats). */
const SEEN_MAX = 50_000;
/** Rows queued at most; past it new ones wait for a later report of the same variant. */
const QUEUE_MAX = 1000;

export class RawWriter {
  private queue: RawReport[] = [];
  private readonly seen = new Set<string>();
  private writing: Promise<void> = Promise.resolve();
  private scheduled = false;
  private failures = 0;

  constructor(private readonly store: SourceMapStore) {}

  add(row: RawReport): void {
    const key = `${row.projectId}:${row.identity}`;
    if (this.seen.has(key) || this.queue.length >= QUEUE_MAX) return;
    if (this.seen.size >= SEEN_MAX) this.seen.clear();
    this.seen.add(key);
    this.queue.push(row);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => void this.write());
    }
  }

  /** Resolves once every row queued so far is written (or failed). */
  async flush(): Promise<void> {
    if (this.queue.length) await this.write();
    await this.writing;
  }

  private write(): Promise<void> {
    this.scheduled = false;
    const rows = this.queue;
    if (!rows.length) return this.writing;
    this.queue = [];
    this.writing = this.writing
      .then(() => this.store.saveRawReports(rows))
      .then(
        () => {
          this.failures = 0;
        },
        (error: unknown) => {
          // Written again by a later report of the same variant; one line per failing stretch.
          for (const row of rows) this.seen.delete(`${row.projectId}:${row.identity}`);
          if (this.failures++ === 0) {
            console.error(
              'svc-server: could not keep the raw frames of mapped reports:',
              String(error),
            );
          }
        },
      );
    return this.writing;
  }
}
