// What a store keeps of a compiled map, and back: the mappings as text, the checkpoints as
// little-endian bytes, the rest as one JSON text (sources, which are dependencies, function
// definitions with their original names; not `names`, which only the upload reads); each own
// source's text compressed on its own (deflate), so the board reads one.
// No `sourcesContent` of dependencies is kept, and nothing a lookup needs is compressed: a map's
// first lookup after a restart parses one JSON text and copies one buffer (bench/server/sourcemaps.mjs).
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Definition } from './functions.ts';
import type { CompiledMap } from './lookup.ts';
import type { CompiledUpload } from './compile.ts';

export interface StoredMap {
  mappings: string;
  checkpoints: Buffer;
  /** JSON: `StoredMeta`. */
  meta: string;
}

interface StoredMeta {
  sources: (string | null)[];
  /** Indexes of the dependency sources. */
  dependencies: number[];
  definitions: Definition[];
}

/** One own source's text, compressed. */
export interface StoredSource {
  index: number;
  content: Buffer;
}

export function storedMap(upload: CompiledUpload): StoredMap {
  const { map } = upload;
  const dependencies: number[] = [];
  for (const [i, flag] of map.dependency.entries()) if (flag) dependencies.push(i);
  const meta: StoredMeta = {
    sources: map.sources,
    dependencies,
    definitions: upload.definitions,
  };
  const checkpoints = Buffer.alloc(map.checkpoints.length * 4);
  for (const [i, value] of map.checkpoints.entries()) checkpoints.writeInt32LE(value, i * 4);
  return { mappings: map.mappings, checkpoints, meta: JSON.stringify(meta) };
}

export function storedSources(upload: CompiledUpload): StoredSource[] {
  const out: StoredSource[] = [];
  for (const [index, text] of upload.contents.entries()) {
    if (text !== null) out.push({ index, content: deflateRawSync(text) });
  }
  return out;
}

export function compiledMap(stored: StoredMap): CompiledMap {
  const meta = JSON.parse(stored.meta) as StoredMeta;
  const dependency = new Uint8Array(meta.sources.length);
  for (const i of meta.dependencies) dependency[i] = 1;
  const count = stored.checkpoints.length / 4;
  const checkpoints = new Int32Array(count);
  for (let i = 0; i < count; i++) checkpoints[i] = stored.checkpoints.readInt32LE(i * 4);
  return {
    mappings: stored.mappings,
    checkpoints,
    sources: meta.sources,
    dependency,
    names: [],
    definitions: meta.definitions,
  };
}

export const sourceText = (content: Buffer): string => inflateRawSync(content).toString('utf8');

/** Estimated heap bytes of a compiled map (the cache's budget counts these). */
export function compiledBytes(map: CompiledMap): number {
  let bytes = 200 + map.mappings.length + map.checkpoints.byteLength + map.dependency.byteLength;
  for (const s of map.sources) bytes += 16 + 2 * (s?.length ?? 0);
  for (const s of map.names) bytes += 16 + 2 * s.length;
  // A definition: its tuple, its generated name, its original, and its place in the index.
  for (const [, , generated, original] of map.definitions) {
    bytes += 96 + 2 * generated.length + (original ? 16 + 2 * original.length : 0);
  }
  return bytes;
}
