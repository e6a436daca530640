// Node: on-disk source maps (comment, inline data: URL, or `<file>.map`), cached per script.
import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SourceMapConsumer } from 'source-map-js';
import { type Definitions, indexDefinitions, originalName } from './fn-names.ts';
import { decodeDataUrl, findMapComment, type Lookup, lookupOf, mapJson } from './sourcemap.ts';
import type { Frame } from './stack.ts';

/** A frame's original position: absolute path, 1-based line and column, original function name. */
export interface MappedFrame extends Frame {
  name?: string;
}

/** Maps bigger than this are ignored (the unresolved location is reported). */
export const NODE_MAP_MAX_BYTES = 64 * 1024 * 1024;
/** Scripts kept in the cache before it is emptied (bounds memory in apps that generate code). */
const CACHE_MAX = 2000;
/** Looked-up positions kept per script. */
const MEMO_MAX = 500;
/**
 * Generated scripts among a map's sources whose own maps are read too (a bundle of a bundler's
 * output, such as SvelteKit's Node adapter rolling up Vite's server build), per script.
 */
const CHAINED_MAX = 200;

interface Entry {
  lookup: Lookup;
  /** Function definitions in the script, for original function names. */
  definitions: Definitions;
  /** Positions looked up (`line:column:name` -> original, or null): repeats skip the map. */
  memo: Map<string, MappedFrame | null>;
  /** Directory that relative `sources` are resolved against (the map's directory). */
  base: string;
  /** Sources that are generated scripts themselves (absolute paths), whose maps are chained. */
  generated: string[];
}

/** Resolved per script path: an entry, or `null` when the script has no usable map. */
const ready = new Map<string, Entry | null>();
const loading = new Map<string, Promise<void>>();

/** Whether the script has a usable map (once it is warm). */
export function hasMap(path: string): boolean {
  return !!ready.get(path);
}

/** Whether the script's map is known (loaded or known to be absent): `mapFrame` is then sync. */
export function isWarm(path: string): boolean {
  return ready.has(path);
}

/**
 * The original position of a frame of `path` (absolute path of the original source, and the
 * original name of the function `name` it is in, when the map names it), or `undefined` when the
 * script has no map or no mapping there. Synchronous: call after `loadMap`.
 */
export function mapFrame(path: string, frame: Frame, name?: string): MappedFrame | undefined {
  const entry = ready.get(path);
  if (!entry) return undefined;
  const key = `${frame.line}:${frame.column}:${name ?? ''}`;
  let mapped = entry.memo.get(key);
  if (mapped === undefined) {
    const pos = entry.lookup(frame.line, frame.column);
    mapped = pos
      ? { file: sourceToPath(pos.source, entry.base), line: pos.line, column: pos.column }
      : null;
    const chained = mapped && ready.get(mapped.file) && mapFrame(mapped.file, mapped);
    if (chained) mapped = chained;
    const original =
      mapped &&
      originalName(
        entry.definitions,
        name,
        frame.line,
        frame.column,
        (line, column) => entry.lookup(line, column)?.name,
      );
    if (mapped && original) mapped.name = original;
    if (entry.memo.size >= MEMO_MAX) entry.memo.clear();
    entry.memo.set(key, mapped);
  }
  return mapped ?? undefined;
}

/** Loads (once) the map of the script at `path` into the cache. Never rejects. */
export function loadMap(path: string): Promise<void> {
  let pending = loading.get(path);
  if (!pending) {
    pending = read(path)
      .then(async (entry) => {
        // The maps of generated sources are read before the script counts as warm.
        if (entry) await Promise.all(entry.generated.map(loadChained));
        remember(path, entry);
      })
      .catch(() => remember(path, null));
    loading.set(path, pending);
  }
  return pending;
}

/** Loads the map of a chained source, not its own chain (two levels at most). */
function loadChained(path: string): Promise<void> {
  if (ready.has(path)) return Promise.resolve();
  return read(path).then(
    (entry) => remember(path, entry && { ...entry, generated: [] }),
    () => remember(path, null),
  );
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
  if (ref?.startsWith('data:')) return entry(mapJson(decodeDataUrl(ref)), dirname(path), code);
  const candidates = ref ? [refToPath(ref, path)] : [];
  candidates.push(`${path}.map`);
  for (const mapPath of candidates) {
    const size = mapPath ? await fileSize(mapPath) : undefined;
    if (size === undefined) continue;
    if (size > NODE_MAP_MAX_BYTES) return null;
    return entry(
      mapJson(await readFile(mapPath as string, 'utf8')),
      dirname(mapPath as string),
      code,
    );
  }
  return null;
}

function entry(raw: unknown, base: string, code: string): Entry {
  const lookup = lookupOf(raw, SourceMapConsumer);
  return {
    lookup,
    base,
    definitions: indexDefinitions(code),
    memo: new Map(),
    generated: generatedSources(raw, base),
  };
}

/** The map's sources that are generated scripts of the app (`.js`, outside `node_modules/`). */
function generatedSources(raw: unknown, base: string): string[] {
  const sources = (raw as { sources?: unknown }).sources;
  if (!Array.isArray(sources)) return [];
  return sources
    .filter((source): source is string => typeof source === 'string')
    .filter((source) => /\.[cm]?js$/.test(source) && !source.includes('node_modules/'))
    .map((source) => sourceToPath(source, base))
    .filter((path) => isAbsolute(path))
    .slice(0, CHAINED_MAX);
}

function refToPath(ref: string, script: string): string | undefined {
  if (ref.startsWith('file://')) return fileURLToPath(ref);
  if (/^[a-z][\w+.-]*:/i.test(ref)) return undefined; // http(s) maps are not read from disk
  return resolve(dirname(script), decodeURIComponent(ref.replace(/[?#].*$/, '')));
}

/**
 * A map's `source` as a path: sources are URLs relative to the map (Turbopack writes
 * `../app/boom/%5Bid%5D/page.tsx`), so they are percent-decoded; other tools write plain paths, kept
 * when they do not decode.
 */
function sourceToPath(source: string, base: string): string {
  if (source.startsWith('file://')) return fileURLToPath(source);
  if (/^[a-z][\w+.-]*:/i.test(source)) return source; // webpack://, http://: made relative later
  let path = source;
  try {
    path = decodeURIComponent(source);
  } catch {
    // a literal `%` in a plain path
  }
  return isAbsolute(path) ? path : resolve(base, path);
}

async function fileSize(path: string): Promise<number | undefined> {
  try {
    const info = await stat(path);
    return info.isFile() ? info.size : undefined;
  } catch {
    return undefined;
  }
}
