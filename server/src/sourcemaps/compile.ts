// One upload checked and turned into what the service keeps (a generator, sliced as ./scan.ts):
// the map flattened when it is an index map, its sources made project-relative, its mappings
// checked with checkpoints, the chunk's function definitions named, the sources' text kept for
// the project's own files only. A map that is not trusted is refused with the field at fault.
import { createHash } from 'node:crypto';
import { type Definition, scanDefinitions } from './functions.ts';
import { flattenSections, type RegularMap, SectionsError } from './index-map.ts';
import { type CompiledMap, NamesInOrder } from './lookup.ts';
import { scanMappings, TooManySegmentsError } from './scan.ts';
import { ignoredSources, normaliseSource, SourceError } from './sources.ts';
import { addError, checkFields, type FieldErrors } from './upload-check.ts';
import { MappingsError } from './vlq.ts';

export interface CompileLimits {
  segmentsMax: number;
  sourcesMax: number;
}

/** An upload the service accepted, as it keeps it. */
export interface CompiledUpload {
  release: string;
  path: string;
  debugId: string | null;
  map: CompiledMap;
  /** The function definitions of the chunk (empty without `code`), in position order. */
  definitions: Definition[];
  /** Per source: its text when it is the project's own code and the map has it, else null. */
  contents: (string | null)[];
  /** sha256 hex of everything kept: the same map uploaded again has the same hash. */
  hash: string;
}

export type UploadCheck = { ok: true; upload: CompiledUpload } | { ok: false; errors: FieldErrors };

/** Checks and compiles a parsed upload body. Never throws for a bad body: it answers the errors. */
export function* compileUpload(body: unknown, limits: CompileLimits): Generator<void, UploadCheck> {
  const { fields, errors } = checkFields(body);
  if (!fields) return { ok: false, errors };
  try {
    const regular = yield* regularMap(fields.map, limits, errors);
    if (!regular) return { ok: false, errors };
    const sources = normaliseSources(regular, limits, errors);
    if (!sources) return { ok: false, errors };
    const scanned = yield* scanMappings(regular.mappings, {
      sources: regular.sources.length,
      names: regular.names.length,
      segmentsMax: limits.segmentsMax,
    });
    const map: CompiledMap = {
      mappings: scanned.mappings,
      checkpoints: scanned.checkpoints,
      sources: sources.paths,
      dependency: sources.dependency,
      names: regular.names.map((n) => (typeof n === 'string' ? n : '')),
      definitions: [],
    };
    const definitions = fields.code ? scanDefinitions(fields.code, nameAt(map)) : [];
    map.definitions = definitions;
    const contents = regular.sources.map((_, i) => {
      const text = regular.sourcesContent[i];
      return typeof text === 'string' && !map.dependency[i] && map.sources[i] ? text : null;
    });
    const upload = { release: fields.release, path: fields.path, debugId: fields.debugId };
    return {
      ok: true,
      upload: {
        ...upload,
        map,
        definitions,
        contents,
        hash: hashOf(map, definitions, contents, upload.debugId),
      },
    };
  } catch (error) {
    if (error instanceof TooManySegmentsError) {
      addError(errors, 'map.mappings', `The mappings decode to more than ${error.limit} segments.`);
    } else if (error instanceof MappingsError) {
      addError(errors, 'map.mappings', `The mappings do not decode: ${error.message}.`);
    } else if (error instanceof SectionsError) {
      addError(errors, 'map.sections', error.message);
    } else throw error;
    return { ok: false, errors };
  }
}

/** The map as a regular one (an index map flattened), or undefined with its errors added. */
function* regularMap(
  map: Record<string, unknown>,
  limits: CompileLimits,
  errors: FieldErrors,
): Generator<void, RegularMap | undefined> {
  if (map.version !== 3) {
    addError(errors, 'map.version', 'The map must be a version 3 source map.');
    return undefined;
  }
  if (Array.isArray(map.sections)) {
    if (map.sections.length > limits.sourcesMax) {
      addError(errors, 'map.sections', `The map may have at most ${limits.sourcesMax} sections.`);
      return undefined;
    }
    return yield* flattenSections(map.sections, limits.segmentsMax);
  }
  if (typeof map.mappings !== 'string')
    addError(errors, 'map.mappings', 'The mappings must be a string.');
  if (!Array.isArray(map.sources)) addError(errors, 'map.sources', 'The sources must be an array.');
  if (map.names !== undefined && !Array.isArray(map.names)) {
    addError(errors, 'map.names', 'The names must be an array.');
  }
  if (errors['map.mappings'] || errors['map.sources'] || errors['map.names']) return undefined;
  const sources = map.sources as unknown[];
  const root = typeof map.sourceRoot === 'string' ? map.sourceRoot : '';
  return {
    sources: root ? sources.map((s) => (typeof s === 'string' ? joinRoot(root, s) : s)) : sources,
    sourcesContent: Array.isArray(map.sourcesContent) ? map.sourcesContent : [],
    names: Array.isArray(map.names) ? map.names : [],
    mappings: map.mappings as string,
    ignoreList: [...ignoredSources(map, sources.length)],
  };
}

const joinRoot = (root: string, source: string) =>
  /^[a-z][\w+.-]*:|^\//i.test(source) ? source : `${root.replace(/\/?$/, '/')}${source}`;

function normaliseSources(
  map: RegularMap,
  limits: CompileLimits,
  errors: FieldErrors,
): { paths: (string | null)[]; dependency: Uint8Array } | undefined {
  if (map.sources.length > limits.sourcesMax) {
    addError(errors, 'map.sources', `The map may name at most ${limits.sourcesMax} sources.`);
    return undefined;
  }
  const paths: (string | null)[] = [];
  const dependency = new Uint8Array(map.sources.length);
  const ignored = new Set(map.ignoreList);
  for (const [i, source] of map.sources.entries()) {
    if (typeof source !== 'string') {
      paths.push(null);
      dependency[i] = 1;
      continue;
    }
    try {
      const found = normaliseSource(source, '');
      paths.push(found.path);
      dependency[i] = found.dependency || ignored.has(i) ? 1 : 0;
    } catch (error) {
      if (!(error instanceof SourceError)) throw error;
      addError(errors, 'map.sources', error.message);
    }
  }
  return errors['map.sources'] ? undefined : { paths, dependency };
}

/** The map's names at the chunk's definitions (asked in position order). */
const nameAt = (map: CompiledMap) => {
  const names = new NamesInOrder(map);
  return (line: number, column: number) => names.at(line, column);
};

function hashOf(
  map: CompiledMap,
  definitions: Definition[],
  contents: (string | null)[],
  debugId: string | null,
): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify([debugId, map.sources, [...map.dependency], definitions]));
  hash.update('\n');
  hash.update(map.mappings);
  for (const text of contents) hash.update(text === null ? '\n-' : `\n+${text.length}:${text}`);
  return hash.digest('hex');
}
