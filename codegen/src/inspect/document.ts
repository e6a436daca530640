// Reads spec/openapi.yaml into a plain object and offers the two lookups every inspector needs:
// a JSON-pointer `$ref` resolver and a deep inliner that makes a self-contained JSON Schema.
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';

export type Doc = Record<string, unknown>;

export async function loadDocument(specPath: string): Promise<Doc> {
  const doc: unknown = parse(await readFile(specPath, 'utf8'));
  if (!isObject(doc)) throw new Error(`${specPath}: not a YAML mapping`);
  return doc;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Follows a local `#/a/b` pointer. */
export function pointer(doc: Doc, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported, got ${ref}`);
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isObject(node) || !(key in node)) throw new Error(`unresolved $ref ${ref}`);
    node = node[key];
  }
  return node;
}

/** Returns the schema component `name`, or throws. */
export function schemaComponent(doc: Doc, name: string): Record<string, unknown> {
  const node = pointer(doc, `#/components/schemas/${name}`);
  if (!isObject(node)) throw new Error(`components.schemas.${name} is not an object`);
  return node;
}

/** Keys that are OpenAPI (or our) annotations, not JSON Schema keywords a validator understands. */
const NON_SCHEMA_KEY = (key: string) => key.startsWith('x-') || key === 'example';

/** Deep copy with every `$ref` inlined and OpenAPI-only keys removed. */
export function inlineSchema(doc: Doc, node: unknown, stack: string[] = []): unknown {
  if (Array.isArray(node)) return node.map((item) => inlineSchema(doc, item, stack));
  if (!isObject(node)) return node;
  if (typeof node.$ref === 'string') {
    if (stack.includes(node.$ref)) throw new Error(`recursive $ref ${node.$ref}`);
    return inlineSchema(doc, pointer(doc, node.$ref), [...stack, node.$ref]);
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (!NON_SCHEMA_KEY(key)) out[key] = inlineSchema(doc, value, stack);
  }
  return out;
}
