// Browser source-map resolver, loaded with dynamic import() only when `sourceMaps` is on.
import { type Definitions, indexDefinitions, originalName } from './fn-names.ts';
import type { Place } from './frames.ts';
import { decodeMap } from './map-lookup.ts';
import { SDK_FRAME } from './site.ts';
import { findMapComment, type Lookup } from './sourcemap.ts';
import type { Frame } from './stack.ts';

/** Budget for one report's whole resolution (fetches and parsing); then the unresolved location. */
export const RESOLVE_TIMEOUT_MS = 3000;
/** Maps larger than this are not parsed. */
export const MAP_MAX_BYTES = 8 * 1024 * 1024;
/** Chunks larger than this are not read for their `sourceMappingURL` comment. */
export const CHUNK_MAX_BYTES = 8 * 1024 * 1024;
/** Frames tried when looking for the first one outside the SDK. */
const MAX_FRAMES = 8;
/** Chunks cached (successes and failures alike, so a broken map is fetched once). */
const CACHE_MAX = 200;
/** Registry of hidden maps written by the Vite plugin: chunk URL pathname -> map URL. */
const REGISTRY = Symbol.for('svc.sourcemaps');

interface ChunkMap {
  lookup: Lookup;
  /** URL that relative `sources` are resolved against. */
  base: string;
  /** Function definitions in the chunk, for original function names. */
  definitions: Definitions;
  /** `line:column:name` -> original place (`null`: no mapping there); repeats skip the map. */
  memo: Map<string, Place | null>;
}

/** Looked-up positions kept per chunk. */
const MEMO_MAX = 500;

const cache = new Map<string, Promise<ChunkMap | null>>();
/** The settled entries of `cache`, for synchronous lookups. */
const ready = new Map<string, ChunkMap | null>();

/**
 * The original place of a frame (URL of the original source, and the original function name of
 * `name` when the map has one): `null` when the chunk has no map or no mapping there, `undefined`
 * while the chunk's map is not known yet (see `warm`). Synchronous.
 */
export function mapFrame(frame: Frame, name?: string): Place | null | undefined {
  const map = ready.get(chunkKey(frame.file));
  return map && originalFrame(map, frame, name);
}

/**
 * Fetches the maps of these chunk URLs (each once, cached with failures alike), for at most
 * `RESOLVE_TIMEOUT_MS` in all. Never rejects.
 */
export function warm(urls: string[]): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, RESOLVE_TIMEOUT_MS);
  });
  const work = Promise.all(urls.map(chunkMap)).then(() => undefined);
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The original position of the first frame whose original source is outside the SDK. A frame
 * whose map cannot be had is returned as is. `undefined` when nothing resolved in time.
 */
export function resolveFrames(frames: Frame[]): Promise<Frame | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, RESOLVE_TIMEOUT_MS, undefined);
  });
  const work = walk(frames.slice(0, MAX_FRAMES)).catch(() => undefined);
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Test seam: forget cached maps. */
export function clearMapCache(): void {
  cache.clear();
  ready.clear();
}

async function walk(frames: Frame[]): Promise<Frame | undefined> {
  for (const frame of frames) {
    const map = await chunkMap(frame.file);
    const original = map && originalFrame(map, frame);
    if (!original) return frame;
    if (!SDK_FRAME.test(original.file)) return original;
  }
  return undefined;
}

function originalFrame(map: ChunkMap, frame: Frame, name?: string): Place | null {
  const key = `${frame.line}:${frame.column}:${name ?? ''}`;
  let found = map.memo.get(key);
  if (found === undefined) {
    const pos = map.lookup(frame.line, frame.column);
    found = pos
      ? { file: new URL(pos.source, map.base).href, line: pos.line, column: pos.column }
      : null;
    const original =
      found &&
      originalName(
        map.definitions,
        name,
        frame.line,
        frame.column,
        (line, column) => map.lookup(line, column)?.name,
      );
    if (found && original) found.name = original;
    if (map.memo.size >= MEMO_MAX) map.memo.clear();
    map.memo.set(key, found);
  }
  return found;
}

const chunkKey = (url: string) => url.replace(/#.*$/, '');

function chunkMap(chunkUrl: string): Promise<ChunkMap | null> {
  const key = chunkKey(chunkUrl);
  let entry = cache.get(key);
  if (!entry) {
    if (cache.size >= CACHE_MAX) {
      cache.clear();
      ready.clear();
    }
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), RESOLVE_TIMEOUT_MS);
    entry = findMap(key, controller.signal)
      .catch(() => null)
      .then((map) => {
        ready.set(key, map);
        return map;
      })
      .finally(() => clearTimeout(timer));
    cache.set(key, entry);
  }
  return entry;
}

/** Tries, in order: the `sourceMappingURL` comment, the `SourceMap` header, `<url>.map`, the registry. */
async function findMap(chunkUrl: string, signal: AbortSignal): Promise<ChunkMap | null> {
  if (!/^https?:/i.test(chunkUrl)) return null;
  const bare = chunkUrl.replace(/[?#].*$/, '');
  const candidates: { url: string; base?: string }[] = [];
  const chunk = await get(chunkUrl, CHUNK_MAX_BYTES, signal);
  const comment = chunk?.text && findMapComment(chunk.text);
  // An inline `data:` map (Vite dev) cannot be a base URL: its sources are relative to the chunk.
  if (comment) {
    const url = new URL(comment, chunkUrl).href;
    candidates.push({ url, base: url.startsWith('data:') ? chunkUrl : undefined });
  }
  const header = chunk?.headers.get('SourceMap') ?? chunk?.headers.get('X-SourceMap');
  if (header) candidates.push({ url: new URL(header, chunkUrl).href });
  candidates.push({ url: `${bare}.map` });
  const registered = registry()[new URL(chunkUrl).pathname];
  // A hidden map's sources are relative to where the map was built: next to the chunk.
  if (registered) candidates.push({ url: new URL(registered, chunkUrl).href, base: `${bare}.map` });
  for (const { url, base } of candidates) {
    const map = await get(url, MAP_MAX_BYTES, signal);
    if (!map?.text) continue;
    try {
      const lookup = decodeMap(map.text);
      const definitions = indexDefinitions(chunk?.text ?? '');
      return { lookup, base: base ?? url, definitions, memo: new Map() };
    } catch {
      // not a source map: try the next place
    }
  }
  return null;
}

function registry(): Record<string, string> {
  const value = (globalThis as Record<symbol, unknown>)[REGISTRY];
  return typeof value === 'object' && value !== null ? (value as Record<string, string>) : {};
}

/** GET with a byte cap; `undefined` on any HTTP or network failure, `text` unset when over the cap. */
async function get(url: string, max: number, signal: AbortSignal) {
  try {
    const response = await fetch(url, { signal, credentials: 'same-origin' });
    if (!response.ok) {
      void response.body?.cancel();
      return undefined;
    }
    return { headers: response.headers, text: await readCapped(response, max) };
  } catch {
    return undefined;
  }
}

async function readCapped(response: Response, max: number): Promise<string | undefined> {
  const declared = Number(response.headers.get('Content-Length'));
  if (declared > max || !response.body) {
    void response.body?.cancel();
    return undefined;
  }
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > max) {
      void reader.cancel();
      return undefined;
    }
    parts.push(read.value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.byteLength;
  }
  return new TextDecoder().decode(bytes);
}
