import { dirname, posix, relative } from 'node:path';
import type { Plugin } from 'vite';

/** Global registry read by the runtime's browser resolver: chunk URL pathname -> map URL. */
const REGISTRY = "globalThis[Symbol.for('svc.sourcemaps')]";

/**
 * Client-build Vite plugin. With hidden maps no chunk names its map, so this appends one statement
 * to each entry chunk that registers every chunk that has a map. URLs are resolved at run time
 * against the entry's own `import.meta.url`, so `app.baseURL` and `app.cdnURL` changes need no
 * rebuild. Appending at the end leaves the entry's own mappings valid.
 */
export function sourceMapRegistry(): Plugin {
  return {
    name: 'svc:sourcemap-registry',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const mapped = chunks.filter((c) => c.map);
      for (const entry of chunks.filter((c) => c.isEntry)) {
        entry.code += registryStatement(
          entry.fileName,
          mapped.map((c) => [c.fileName, c.sourcemapFileName ?? `${c.fileName}.map`]),
        );
      }
    },
  };
}

/** The appended statement; exported for unit tests. */
export function registryStatement(
  entryFile: string,
  files: [chunk: string, map: string][],
): string {
  const from = dirname(entryFile);
  const rel = (f: string) => {
    const r = relative(from, f).split('\\').join(posix.sep);
    return r.startsWith('.') ? r : `./${r}`;
  };
  const pairs = JSON.stringify(files.map(([chunk, map]) => [rel(chunk), rel(map)]));
  return `\n;((r,b)=>{for(const[c,m]of ${pairs})r[new URL(c,b).pathname]=new URL(m,b).href})(${REGISTRY}??={},import.meta.url);\n`;
}
