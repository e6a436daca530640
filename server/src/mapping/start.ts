// Source maps as `startServer` runs them: the store (the one a URL or data dir selects, or the
// one given beside a custom ingestion store), behind the service's availability guard, the report
// mapper and the upload handler.
import { openSourceMapStore } from '../store/open.ts';
import type { SourceMapStore } from '../store/sourcemap-types.ts';
import { ReportMapper } from './mapper.ts';
import {
  resolveSourceMapOptions,
  type ResolvedSourceMapOptions,
  type SourceMapOptions,
} from './options.ts';
import { Uploads } from './uploads.ts';

export interface SourceMaps {
  store: SourceMapStore;
  mapper: ReportMapper;
  uploads: Uploads;
  options: ResolvedSourceMapOptions;
  close(): Promise<void>;
}

export interface StartSourceMapsOptions {
  options: SourceMapOptions | false | undefined;
  /** A ready store (with a custom ingestion store, source maps are off without one). */
  store?: SourceMapStore;
  customStore: boolean;
  databaseUrl: string | undefined;
  dataDir: string;
  now: () => number;
  /** The service's availability guard (an unreachable database answers 503). */
  guard: <T extends object>(target: T) => T;
}

/** Opens source maps, or undefined when they are off. */
export async function startSourceMaps(
  opts: StartSourceMapsOptions,
): Promise<SourceMaps | undefined> {
  if (opts.options === false || (opts.customStore && !opts.store)) return undefined;
  const options = resolveSourceMapOptions(opts.options);
  const opened = opts.store ?? (await openSourceMapStore(opts));
  const store = opts.guard(opened);
  const mapper = new ReportMapper({
    store,
    now: opts.now,
    cacheBytes: options.cacheBytes,
    indexTtlMs: options.indexTtlMs,
  });
  const uploads = new Uploads({
    store,
    mapper,
    limits: options,
    now: opts.now,
    budgetBytes: options.uploadBudgetBytes,
  });
  return {
    store,
    mapper,
    uploads,
    options,
    async close() {
      await mapper.flush();
      await store.close();
    },
  };
}
