// Node: on-disk source maps (comment, inline data: URL, or `<file>.map`), cached per script.
import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SourceMapConsumer } from 'source-map-js';
import { decodeDataUrl, findMapComment, type Lookup, parseMap } from './sourcemap.ts';
import type { Frame } from './stack.ts';

/** Maps bigger than this are ignored (the unresolved location is reported). */
export const NODE_MAP_MAX_BYTES = 64 * 1024 * 1024;
/** Scripts kept in the cache before it is emptied (bounds memory in apps that generate code). */
const CACHE_MAX = 2000;
/** Looked-up positions kept per script. */
const MEMO_MAX = 500;

interface Entry {
  lookup: Lookup;
  /** Positions already looked up (`line:column` -> original frame): repeated reports skip the map. */
  memo: Map<string, Frame>;
  /** Directory that relative `sources` are resolved against (the map's directory). */
  base: string;
}

/** Resolved per script path: an entry, or `null` when the script has no usable map. */
const ready = new Map<string, Entry | null>();
const loading = new Map<string, Promise<void>>();

/** Whether the script's map is known (loaded or known to be absent): `mapFrame` is then sync. */
export function isWarm(path: string): boolean {
  return ready.has(path);
}

/**
 * The original position of a frame of `path` (absolute path of the original source), or the frame
 * itself when the script has no map or no mapping there. Synchronous: call after `loadMap`.
 */
export function mapFrame(path: string, frame: Frame): Frame {
  const entry = ready.get(path);
  if (!entry) return frame;
  const key = `${frame.line}:${frame.column}`;
  let mapped = entry.memo.get(key);
  if (!mapped) {
    const pos = entry.lookup(frame.line, frame.column);
    mapped = pos
      ? { file: sourceToPath(pos.source, entry.base), line: pos.line, column: 0 }
      : frame;
    if (entry.memo.size >= MEMO_MAX) entry.memo.clear();
    entry.memo.set(key, mapped);
  }
  return mapped;
}

/** Loads (once) the map of the script at `path` into the cache. Never rejects. */
export function loadMap(path: string): Promise<void> {
  let pending = loading.get(path);
  if (!pending) {
    pending = read(path).then(
      (entry) => remember(path, entry),
      () => remember(path, null),
    );
    loading.set(path, pending);
  }
  return pending;
}

/** Test and bench seam: forget every cached map. */
export function clearMapCache(): void {
  ready.clear();
  loading.clear();
}

function remember(path: string, entry: Entry | null): void {
  if (ready.size >= CACHE_MAX) ready.clear();
  ready.set(path, entry);
  loading.delete(path);
}

async function read(path: string): Promise<Entry | null> {
  const code = await readFile(path, 'utf8');
  const ref = findMapComment(code);
  if (ref?.startsWith('data:'))
    return entry(parseMap(decodeDataUrl(ref), SourceMapConsumer), dirname(path));
  const candidates = ref ? [refToPath(ref, path)] : [];
  candidates.push(`${path}.map`);
  for (const mapPath of candidates) {
    const size = mapPath ? await fileSize(mapPath) : undefined;
    if (size === undefined) continue;
    if (size > NODE_MAP_MAX_BYTES) return null;
    return entry(
      parseMap(await readFile(mapPath as string, 'utf8'), SourceMapConsumer),
      dirname(mapPath as string),
    );
  }
  return null;
}

function entry(lookup: Lookup, base: string): Entry {
  return { lookup, base, memo: new Map() };
}

function refToPath(ref: string, script: string): string | undefined {
  if (ref.startsWith('file://')) return fileURLToPath(ref);
  if (/^[a-z][\w+.-]*:/i.test(ref)) return undefined; // http(s) maps are not read from disk
  return resolve(dirname(script), decodeURIComponent(ref.replace(/[?#].*$/, '')));
}

function sourceToPath(source: string, base: string): string {
  if (source.startsWith('file://')) return fileURLToPath(source);
  if (/^[a-z][\w+.-]*:/i.test(source)) return source; // webpack://, http://: made relative later
  return isAbsolute(source) ? source : resolve(base, source);
}

async function fileSize(path: string): Promise<number | undefined> {
  try {
    const info = await stat(path);
    return info.isFile() ? info.size : undefined;
  } catch {
    return undefined;
  }
}
