// Maps of maps: a bundler that bundles another bundler's output (Nitro's Rollup over Vite's SSR
// build) writes maps whose sources are the intermediate files (`.nuxt/dist/server/_nuxt/_id_-x.js`),
// whose own maps point at the originals (`app/pages/orders/[id].vue`). Chained here at build time,
// the final maps name the originals, with their content and names, for the Node SDK reading them
// on disk and for the upload alike.
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { SourceMapConsumer, SourceMapGenerator } from 'source-map-js';
import { findMapComment, mapJson } from '../location/sourcemap.ts';
import { mapFileOf, readFolder } from './folder.ts';

type RawMap = ConstructorParameters<typeof SourceMapConsumer>[0] & {
  sources?: (string | null)[];
  sourceRoot?: string;
  sections?: unknown;
};

const inside = (file: string, dirs: string[]) =>
  dirs.some((dir) => {
    const rel = relative(dir, file);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  });

/** The map of an intermediate file, when it has one (its comment, else `<file>.map`). */
async function intermediateMap(file: string): Promise<{ map: RawMap; file: string } | undefined> {
  let code: string;
  try {
    code = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  const mapFile = await mapFileOf(file, findMapComment(code));
  if (!mapFile) return undefined;
  return { map: mapJson(await readFile(mapFile, 'utf8')) as RawMap, file: mapFile };
}

/** One map chained through the maps of its sources that lie in `through`; whether it changed. */
async function chainOne(mapFile: string, through: string[]): Promise<boolean> {
  const outer = mapJson(await readFile(mapFile, 'utf8')) as RawMap;
  if (outer.sections || !Array.isArray(outer.sources)) return false;
  const base = dirname(mapFile);
  const root = outer.sourceRoot ? resolve(base, outer.sourceRoot) : base;
  let generator: SourceMapGenerator | undefined;
  for (const source of outer.sources) {
    if (typeof source !== 'string' || /^[a-z][\w+.-]*:/i.test(source)) continue;
    const file = resolve(root, source);
    if (!inside(file, through)) continue;
    const inner = await intermediateMap(file);
    if (!inner) continue;
    generator ??= SourceMapGenerator.fromSourceMap(new SourceMapConsumer(outer));
    const innerDir = relative(root, dirname(inner.file)).split(sep).join('/');
    generator.applySourceMap(new SourceMapConsumer(inner.map), source, innerDir || '.');
  }
  if (!generator) return false;
  await writeFile(mapFile, generator.toString());
  return true;
}

/**
 * Rewrites, in place, the maps of the scripts under `dir` whose sources are files under one of
 * `through` (a build's intermediate output) that have maps of their own, so that they name the
 * original sources. Returns how many maps changed. A map that cannot be read or chained is left
 * as it is.
 */
export async function chainMaps(dir: string, through: string[]): Promise<number> {
  const { chunks } = await readFolder({ dir, pathPrefix: '', strip: false });
  const dirs = through.map((d) => resolve(d));
  let changed = 0;
  for (const chunk of chunks) {
    if (!chunk.mapFile) continue;
    if (await chainOne(chunk.mapFile, dirs).catch(() => false)) changed++;
  }
  return changed;
}
