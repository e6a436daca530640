// Shared source-map helpers for Node and the browser: find the map reference, look up a position.
import type { SourceMapConsumer } from 'source-map-js';

/** source-map-js's `SourceMapConsumer`, passed in (Node; the browser uses ./map-lookup.ts). */
export type Consumer = typeof SourceMapConsumer;

/**
 * An original position: `source` as written in the map (sourceRoot applied), 1-based line and
 * column, and the map's name of the identifier there (when it has one).
 */
export interface Original {
  source: string;
  line: number;
  column: number;
  name?: string;
}

/** Looks up a generated 1-based line and column; `undefined` when the map has no mapping there. */
export type Lookup = (line: number, column: number) => Original | undefined;

/** The last `sourceMappingURL` comment of a script (`//#`, legacy `//@`, or a CSS-style block). */
export function findMapComment(code: string): string | undefined {
  const re = /(?:\/\/|\/\*)[#@]\s*sourceMappingURL=([^\s*'"]+)/g;
  let last: string | undefined;
  const tail = code.lastIndexOf('sourceMappingURL=');
  if (tail === -1) return undefined;
  re.lastIndex = Math.max(0, tail - 8);
  for (let m = re.exec(code); m; m = re.exec(code)) last = m[1];
  return last;
}

/** A map's JSON text parsed (an XSSI `)]}'` first line is allowed). Throws on bad JSON. */
export function mapJson(text: string): unknown {
  return JSON.parse(text.replace(/^\)\]\}'[^\n]*\n/, ''));
}

/** Parses a map's JSON text (an XSSI `)]}'` prefix is allowed) into a lookup. Throws on bad maps. */
export function parseMap(text: string, SourceMapConsumer: Consumer): Lookup {
  return lookupOf(mapJson(text), SourceMapConsumer);
}

/** A parsed map (`mapJson`) as a lookup. Throws on bad maps. */
export function lookupOf(raw: unknown, SourceMapConsumer: Consumer): Lookup {
  const consumer = new SourceMapConsumer(raw as ConstructorParameters<Consumer>[0]);
  return (line, column) => {
    const at = { line, column: Math.max(0, column - 1) };
    let pos = consumer.originalPositionFor(at);
    if (!pos.source) {
      pos = consumer.originalPositionFor({ ...at, bias: SourceMapConsumer.LEAST_UPPER_BOUND });
    }
    if (!pos.source || !pos.line) return undefined;
    const found: Original = { source: pos.source, line: pos.line, column: (pos.column ?? 0) + 1 };
    if (pos.name) found.name = pos.name;
    return found;
  };
}

/** Decodes a `data:` URL map (base64 or percent-encoded JSON) to text. */
export function decodeDataUrl(url: string): string {
  const comma = url.indexOf(',');
  const meta = url.slice(5, comma);
  const body = url.slice(comma + 1);
  if (!/;base64$/i.test(meta)) return decodeURIComponent(body);
  const bin = atob(body);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return new TextDecoder().decode(bytes);
}
