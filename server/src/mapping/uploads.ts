// `POST /api/v1/sourcemaps` after authentication: the body parsed and compiled (./sourcemaps/, a
// slice per event-loop turn), stored with the project's limits and retention, and the answer. One
// upload is compiled at a time per process (a large map's work and memory are bounded; reports are
// answered between its slices); the bodies being read are bounded by a byte budget (`reserve`).
import type { components } from '../generated/wire.gen.ts';
import { storedMap, storedSources } from '../sourcemaps/codec.ts';
import { compileUpload } from '../sourcemaps/compile.ts';
import { runSliced } from '../sourcemaps/steps.ts';
import type { SourceMapEntry, SourceMapStore } from '../store/sourcemap-types.ts';
import type { ReportMapper } from './mapper.ts';

type Answer = components['schemas']['SourceMapAnswer'];

/** The limits of uploads (defaults: the spec's `x-svc-sourcemaps`). */
export interface UploadLimits {
  fileBytesMax: number;
  projectBytesMax: number;
  releasesKept: number;
  segmentsMax: number;
  sourcesMax: number;
}

export interface UploadAnswer {
  status: number;
  body: string;
  retryAfter?: number;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const NOT_JSON = JSON.stringify({
  message: 'The request body is not valid UTF-8 JSON.',
  errors: { body: ['The body must be a JSON object.'] },
});

export const toStored = (entry: SourceMapEntry): Answer['data'] => ({
  id: entry.id,
  release: entry.release,
  path: entry.path,
  debug_id: entry.debugId,
  bytes: entry.bytes,
  sources: entry.sources,
  uploaded_at: new Date(entry.uploadedAt).toISOString(),
});

export class Uploads {
  private queue: Promise<unknown> = Promise.resolve();
  private reserved = 0;

  constructor(
    private readonly deps: {
      store: SourceMapStore;
      mapper: ReportMapper;
      limits: UploadLimits;
      now: () => number;
      /** Bytes of upload bodies held at once (reading or waiting their turn). */
      budgetBytes: number;
    },
  ) {}

  /**
   * Reserves `bytes` of the body budget for a request about to be read: false when the budget is
   * taken (answered 503, retry later). Every true must be followed by one `release(bytes)`.
   */
  reserve(bytes: number): boolean {
    if (this.reserved > 0 && this.reserved + bytes > this.deps.budgetBytes) return false;
    this.reserved += bytes;
    return true;
  }

  release(bytes: number): void {
    this.reserved -= bytes;
  }

  /** Answers one authenticated upload of `projectId`; store failures reject (503 or 500). */
  answer(projectId: number, rawBody: Buffer): Promise<UploadAnswer> {
    const turn = this.queue.then(() => this.store(projectId, rawBody));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private async store(projectId: number, rawBody: Buffer): Promise<UploadAnswer> {
    let body: unknown;
    try {
      body = JSON.parse(UTF8.decode(rawBody));
    } catch {
      return { status: 422, body: NOT_JSON };
    }
    const { limits } = this.deps;
    const checked = await runSliced(compileUpload(body, limits));
    body = undefined;
    if (!checked.ok) {
      return {
        status: 422,
        body: JSON.stringify({ message: 'The given data was invalid.', errors: checked.errors }),
      };
    }
    const { upload } = checked;
    const outcome = await this.deps.store.putSourceMap(
      {
        projectId,
        release: upload.release,
        path: upload.path,
        debugId: upload.debugId,
        hash: upload.hash,
        bytes: rawBody.length,
        sources: upload.map.sources.length,
        stored: storedMap(upload),
        contents: storedSources(upload),
      },
      limits,
      this.deps.now(),
    );
    if (outcome.kind === 'project_full') {
      return {
        status: 413,
        body: JSON.stringify({
          message:
            `Storing this map would take the project's source maps to ${outcome.usedBytes} bytes, ` +
            `over its limit of ${outcome.limit}. Delete old releases (svc-server sourcemaps delete).`,
        }),
      };
    }
    if (outcome.kind !== 'same') {
      this.deps.mapper.changed(projectId, { mapId: outcome.entry.mapId, map: upload.map });
    }
    const answer: Answer = {
      data: toStored(outcome.entry),
      created: outcome.kind !== 'same',
      replaced: outcome.kind === 'replaced',
    };
    return { status: outcome.kind === 'same' ? 200 : 201, body: JSON.stringify(answer) };
  }
}
