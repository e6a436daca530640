// The chunks of a build output folder and their source maps, paired the way a debugger pairs them:
// the chunk's `sourceMappingURL` comment (a file beside it, or an inline `data:` map), else
// `<chunk>.map`; the debug ID from the chunk's `//# debugId=` comment, else the map's `debugId`.
// Each chunk gets the `path` the SDK writes in its stack frames (the upload's key).
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { findMapComment } from '../location/sourcemap.ts';

/** A build output folder and how its chunks are named in stack frames. */
export interface OutputFolder {
  /** The folder (absolute, or relative to the working directory). */
  dir: string;
  /**
   * What comes before a chunk's path inside `dir` in the SDK's frames: the URL path the folder is
   * served under (`_next/static/` for `.next/static`, `''` for Vite's `dist/` at the site root), or
   * for server output its project-relative path (`.next/server/`).
   */
  pathPrefix: string;
  /** Remove the maps and their comments from this folder after the upload (a deployed folder). */
  strip: boolean;
}

/** A chunk that has a source map. */
export interface MappedChunk {
  /** Absolute path of the chunk. */
  chunkFile: string;
  /** Absolute path of its map file; absent for an inline (`data:`) map. */
  mapFile?: string;
  /** The chunk's path as the SDK writes it in a stack frame (`assets/index-Bx12.js`). */
  path: string;
  /** The debug ID the bundler wrote (lower-case UUID), when it wrote one. */
  debugId?: string;
}

/** What a folder holds: its mapped chunks, and every map file and commented file in it. */
export interface FolderContents {
  chunks: MappedChunk[];
  /** Every `.map` file under the folder (paired or not). */
  mapFiles: string[];
  /** Every script or stylesheet that names a map in a comment. */
  commented: string[];
}

const SCRIPT = /\.(?:js|mjs|cjs)$/;
const STYLE = /\.css$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Folders never searched: dependencies keep their own maps and read as `node_modules/...`. */
const SKIPPED = new Set(['node_modules', '.git', 'cache']);

/** Every file under `dir` (relative, `/`-separated), skipping dependency and cache folders. */
export async function listFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (at: string): Promise<void> => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(at, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = join(at, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name)) await walk(full);
      } else if (entry.isFile()) found.push(relative(dir, full).split(sep).join('/'));
    }
  };
  await walk(dir);
  return found.sort();
}

/** The `//# debugId=<uuid>` comment of a chunk (TC39 debug ID proposal), lower-cased. */
export function findDebugIdComment(code: string): string | undefined {
  const tail = code.slice(code.lastIndexOf('debugId=') - 4);
  const match = /\/\/# debugId=([0-9a-fA-F-]{36})\s*$/m.exec(tail);
  return match && UUID.test(match[1]) ? match[1].toLowerCase() : undefined;
}

/** The `debugId` field of a map's JSON (also the older `debug_id`), lower-cased. */
export function mapDebugId(map: Record<string, unknown>): string | undefined {
  const id = map.debugId ?? map.debug_id;
  return typeof id === 'string' && UUID.test(id) ? id.toLowerCase() : undefined;
}

/** A `path` prefix written as the SDK writes paths: no origin, no leading `/`, ends with `/`. */
export function normalPrefix(prefix: string): string {
  const path = prefix
    .trim()
    .replace(/^[a-z][\w+.-]*:\/\/[^/]*/i, '')
    .replace(/^~?\/+/, '')
    .replace(/[?#].*$/, '');
  return path === '' || path.endsWith('/') ? path : `${path}/`;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** The map file a chunk names (a relative URL to a file in the folder), else `<chunk>.map`. */
export async function mapFileOf(
  chunkFile: string,
  comment: string | undefined,
): Promise<string | undefined> {
  if (comment && !/^[a-z][\w+.-]*:/i.test(comment)) {
    let named: string;
    try {
      named = resolve(dirname(chunkFile), decodeURIComponent(comment.replace(/[?#].*$/, '')));
    } catch {
      named = resolve(dirname(chunkFile), comment);
    }
    if (await isFile(named)) return named;
  }
  const beside = `${chunkFile}.map`;
  return (await isFile(beside)) ? beside : undefined;
}

/** The chunks of `folder` that have a map, every map file in it, and the files naming one. */
export async function readFolder(folder: OutputFolder): Promise<FolderContents> {
  const dir = resolve(folder.dir);
  const prefix = normalPrefix(folder.pathPrefix);
  const files = await listFiles(dir);
  const contents: FolderContents = {
    chunks: [],
    mapFiles: files.filter((f) => f.endsWith('.map')).map((f) => join(dir, f)),
    commented: [],
  };
  for (const file of files) {
    const script = SCRIPT.test(file);
    if (!script && !STYLE.test(file)) continue;
    const chunkFile = join(dir, file);
    const code = await readFile(chunkFile, 'utf8');
    const comment = findMapComment(code);
    if (comment) contents.commented.push(chunkFile);
    if (!script) continue;
    const inline = comment?.startsWith('data:');
    const mapFile = inline ? undefined : await mapFileOf(chunkFile, comment);
    if (!inline && !mapFile) continue;
    const chunk: MappedChunk = { chunkFile, path: prefix + file };
    if (mapFile) chunk.mapFile = mapFile;
    const debugId = findDebugIdComment(code);
    if (debugId) chunk.debugId = debugId;
    contents.chunks.push(chunk);
  }
  return contents;
}
