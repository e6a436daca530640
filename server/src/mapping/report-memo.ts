// Reports already mapped, by what their mapping depends on (the project's index, the report's
// release, description, file_name and line_number, and its title, which names its raw row): a repeat of a mapped report (most reports are
// repeats) is answered from here without parsing a line. Within a byte budget; an index read anew
// (an upload, a deletion, the TTL) starts new keys, and the old ones age out.
import type { TaskReport } from '../domain/types.ts';
import { createByteCache, stringBytes } from '../store/byte-cache.ts';
import type { RawReport } from '../store/sourcemap-types.ts';
import type { ProjectIndex } from './index-cache.ts';

/** A mapped report's new fields (undefined: nothing changed) and its raw row (without its time). */
export interface MemoEntry {
  fields?: Pick<TaskReport, 'description' | 'file_name' | 'line_number'>;
  raw?: Omit<RawReport, 'createdAt'>;
  /** When the report named a chunk its index lacked: mapped again from this time (Unix ms). */
  recheckAt?: number;
}

export class ReportMemo {
  private readonly ids = new WeakMap<ProjectIndex, number>();
  private next = 0;
  private readonly entries;

  constructor(maxBytes: number) {
    this.entries = createByteCache<string, MemoEntry>({
      maxBytes,
      sizeOf: (key, entry) =>
        stringBytes(key) +
        64 +
        stringBytes(entry.fields?.description) +
        stringBytes(entry.fields?.file_name) +
        stringBytes(entry.raw?.notes) +
        stringBytes(entry.raw?.context) +
        stringBytes(entry.raw?.identity),
    });
  }

  /** The key of `report` mapped through `index`. */
  key(index: ProjectIndex, report: TaskReport, release: string | undefined): string {
    let id = this.ids.get(index);
    if (id === undefined) {
      id = this.next++;
      this.ids.set(index, id);
    }
    // The title too: the raw row kept for the report's variant is named by it.
    return `${id}\u0000${release ?? '\u0001'}\u0000${report.title}\u0000${report.file_name ?? '\u0001'}\u0000${report.line_number ?? ''}\u0000${report.description ?? '\u0001'}`;
  }

  get(key: string): MemoEntry | undefined {
    return this.entries.get(key);
  }

  set(key: string, entry: MemoEntry): void {
    this.entries.set(key, entry);
  }
}
