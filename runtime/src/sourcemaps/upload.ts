// A build's maps to the service, and none left in what is deployed: the folders are read
// (./folder.ts), each map is uploaded with its sources made project-relative (./sources.ts) by at
// most `concurrency` requests at once (./request.ts), the deployed folders are stripped
// (./strip.ts) whatever the upload's outcome, and one line says what happened. Never throws: a
// build with no credentials or no reachable service still builds.
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import type { components } from '../generated/wire.gen.ts';
import { readServerSettings, settingVariable } from '../kit/settings.ts';
import { decodeDataUrl, findMapComment, mapJson } from '../location/sourcemap.ts';
import { type MappedChunk, type OutputFolder, mapDebugId, readFolder } from './folder.ts';
import { redactUrl, type UploadOutcome, type UploadTarget, uploadMap } from './request.ts';
import { withProjectSources } from './sources.ts';
import { stripMaps, withoutMapComment } from './strip.ts';

/** The upload's body, as the spec says (the generated wire types). */
type SourceMapUpload = components['schemas']['SourceMapUpload'];

/** Options of {@link uploadSourceMaps}. */
export interface UploadOptions extends Partial<Omit<UploadTarget, 'keyId' | 'signingSecret'>> {
  /** The build output folders, with the path prefix of their chunks and whether they are deployed. */
  folders: OutputFolder[];
  /** The release the maps are keyed by (the `release:` tag of the build's reports). */
  release: string;
  /** The app root the maps' sources are made relative to. @default process.cwd() */
  projectRoot?: string;
  /**
   * The variables the address and the secret key are read from (`SERVICE_URL`, `SERVICE_KEY_ID`,
   * `SERVICE_SIGNING_SECRET`). @default process.env
   */
  env?: Record<string, string | undefined>;
  /** Uploads in flight at once. @default 4 */
  concurrency?: number;
  /** Where the one line goes. @default console.log */
  log?: (line: string) => void;
}

/** What {@link uploadSourceMaps} did. */
export interface UploadResult {
  release: string;
  /** Chunks found with a map. */
  found: number;
  /** Maps the service holds now (stored by this run or already there). */
  uploaded: number;
  /** Map files deleted from the deployed folders. */
  deleted: number;
  /** Why nothing (or not everything) was uploaded; absent when every map was. */
  reason?: string;
  /** The line that was logged. */
  line: string;
}

/** The address and secret key of the build's environment, or why there are none. */
function credentials(options: UploadOptions): { target: UploadTarget } | { reason: string } {
  const settings = readServerSettings(options.env ?? process.env);
  const serviceUrl = options.serviceUrl ?? settings.serviceUrl;
  const missing = (['serviceUrl', 'keyId', 'signingSecret'] as const)
    .filter((name) => !(name === 'serviceUrl' ? serviceUrl : settings[name]))
    .map((name) => settingVariable(name));
  if (missing.length > 0) return { reason: `no credentials (${missing.join(', ')} not set)` };
  if (!/^https?:\/\/[^/?#\s]+[^?#\s]*$/i.test(serviceUrl!.trim()))
    return { reason: `${settingVariable('serviceUrl')} is not an absolute http(s) URL` };
  const {
    folders: _f,
    release: _r,
    projectRoot: _p,
    env: _e,
    concurrency: _c,
    log: _l,
    ...seams
  } = options;
  return {
    target: {
      ...seams,
      serviceUrl: serviceUrl!.trim(),
      keyId: settings.keyId!,
      signingSecret: settings.signingSecret!,
    },
  };
}

/** The map of a chunk as parsed JSON (its file, or the inline `data:` URL), and its folder. */
async function readMap(chunk: MappedChunk): Promise<{ map: Record<string, unknown>; dir: string }> {
  if (chunk.mapFile) {
    const map = mapJson(await readFile(chunk.mapFile, 'utf8'));
    return { map: map as Record<string, unknown>, dir: dirname(chunk.mapFile) };
  }
  const comment = findMapComment(await readFile(chunk.chunkFile, 'utf8')) ?? '';
  return {
    map: mapJson(decodeDataUrl(comment)) as Record<string, unknown>,
    dir: dirname(chunk.chunkFile),
  };
}

/**
 * The request body of one chunk's map (the spec's `SourceMapUpload`): its sources made
 * project-relative, and the chunk's code as deployed (its map comment removed), from which the
 * service learns the original names of the functions a stack prints minified.
 */
async function uploadBody(chunk: MappedChunk, release: string, root: string): Promise<string> {
  const { map, dir } = await readMap(chunk);
  if (!map || typeof map !== 'object' || Array.isArray(map)) throw new Error('not a source map');
  const debugId = chunk.debugId ?? mapDebugId(map);
  const body: SourceMapUpload = {
    release,
    path: chunk.path,
    ...(debugId ? { debug_id: debugId } : {}),
    map: withProjectSources(map, dir, root) as SourceMapUpload['map'],
    code: withoutMapComment(await readFile(chunk.chunkFile, 'utf8')),
  };
  return JSON.stringify(body);
}

/** Every chunk's map uploaded, `concurrency` at a time; stops starting new ones after a fatal answer. */
async function uploadAll(
  chunks: MappedChunk[],
  options: UploadOptions,
  target: UploadTarget,
): Promise<{ stored: number; fatal?: string; refused: string[] }> {
  const root = resolve(options.projectRoot ?? process.cwd());
  const state: { stored: number; fatal?: string; refused: string[] } = { stored: 0, refused: [] };
  const queue = [...chunks];
  const worker = async () => {
    for (let chunk = queue.shift(); chunk && !state.fatal; chunk = queue.shift()) {
      let outcome: UploadOutcome;
      try {
        outcome = await uploadMap(target, await uploadBody(chunk, options.release, root));
      } catch (error) {
        state.refused.push(`${chunk.path}: ${(error as Error).message}`);
        continue;
      }
      if (outcome.kind === 'stored') state.stored++;
      else if (outcome.kind === 'unreachable')
        state.fatal = `service unreachable at ${redactUrl(target.serviceUrl)} (${outcome.detail})`;
      else if (outcome.status === 401 || outcome.status === 403)
        state.fatal = `refused: ${outcome.message}`;
      else state.refused.push(`${chunk.path}: ${outcome.message}`);
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency ?? 4, chunks.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return state;
}

/** The one line: what was uploaded for which release, or why nothing was. */
function summary(release: string, found: number, stored: number, reason?: string): string {
  if (stored === 0) return `[svc] no source maps uploaded because ${reason}`;
  const count = stored === found ? `${stored}` : `${stored} of ${found}`;
  const rest = reason ? `; ${reason}` : '';
  return `[svc] uploaded ${count} source map${found === 1 ? '' : 's'} for release ${release}${rest}`;
}

/** The chunks of every folder uploaded; why not all were, or nothing when all were. */
async function uploadFolders(
  chunks: MappedChunk[],
  options: UploadOptions,
): Promise<{ stored: number; reason?: string }> {
  if (chunks.length === 0) {
    const root = resolve(options.projectRoot ?? process.cwd());
    const where = options.folders.map((f) => {
      const inside = relative(root, resolve(f.dir));
      return inside.startsWith('..') || isAbsolute(inside) ? resolve(f.dir) : inside || '.';
    });
    return { stored: 0, reason: `no source maps were found in ${where.join(', ')}` };
  }
  const given = credentials(options);
  if ('reason' in given) return { stored: 0, reason: given.reason };
  const done = await uploadAll(chunks, options, given.target);
  const refused = done.refused.length ? `refused: ${done.refused.join('; ')}` : undefined;
  return { stored: done.stored, reason: done.fatal ?? refused };
}

/**
 * Uploads the maps of a build's output folders for `release`, then removes every map and map
 * comment from the folders marked `strip`, whatever the upload's outcome (a deploy never holds a
 * map). Logs one line. Never throws.
 */
export async function uploadSourceMaps(options: UploadOptions): Promise<UploadResult> {
  const { release } = options;
  const contents = await Promise.all(
    options.folders.map((folder) =>
      readFolder(folder).catch(() => ({ chunks: [], mapFiles: [], commented: [] })),
    ),
  );
  const chunks = contents.flatMap((c) => c.chunks);
  let outcome: { stored: number; reason?: string };
  try {
    outcome = await uploadFolders(chunks, options);
  } catch (error) {
    outcome = { stored: 0, reason: `of an error: ${(error as Error)?.message ?? error}` };
  }
  let deleted = 0;
  for (const [at, folder] of options.folders.entries()) {
    if (!folder.strip) continue;
    const { commented, mapFiles } = contents[at]!;
    deleted += await stripMaps(commented, mapFiles).catch(() => 0);
  }
  const line = summary(release, chunks.length, outcome.stored, outcome.reason);
  try {
    (options.log ?? console.log)(line);
  } catch {
    // a broken logger changes nothing
  }
  const { stored: uploaded, reason } = outcome;
  return { release, found: chunks.length, uploaded, deleted, ...(reason ? { reason } : {}), line };
}
