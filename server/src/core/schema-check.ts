// A JSON Schema checker that interprets the generated request schemas (`taskReportSchema`,
// `sourceMapUploadSchema` of ../generated/schema.gen.ts) instead of compiling them to code: the
// service loads and runs in a host started with `node --disallow-code-generation-from-strings`,
// where a validator that builds functions from strings (ajv) cannot even load. It knows exactly the
// keywords those schemas use, and refuses, when it is made, a schema with any other (a spec change
// that needs one fails at start and in tests, never silently). Its errors are ajv's, keyword for
// keyword and in ajv's order with `allErrors` (test/core/schema-check.test.ts compares both), so
// the field errors of a 422 read as they always have.

/** One failed keyword, shaped as ajv reports it. */
export interface SchemaError {
  keyword: string;
  /** JSON Pointer of the failing value (`/tags/0`); empty for the root. */
  instancePath: string;
  params: Record<string, unknown>;
  message: string;
}

/** True when `data` is valid; the errors of the last call are on `errors` (null when valid). */
export type SchemaCheck = ((data: unknown) => boolean) & { errors: SchemaError[] | null };

type Schema = Readonly<Record<string, unknown>>;

/** Keywords with no effect on validity (annotations). */
const ANNOTATIONS = new Set(['description', 'default', 'contentEncoding', 'title', 'examples']);
/** Keywords this checker applies. */
const KEYWORDS = new Set([
  'type',
  'enum',
  'const',
  'anyOf',
  'maximum',
  'minimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'items',
  'required',
  'properties',
]);

/** Throws on a keyword this checker does not apply (anywhere in `schema`). */
function assertKnown(schema: Schema, at: string): void {
  for (const [keyword, value] of Object.entries(schema)) {
    if (!KEYWORDS.has(keyword) && !ANNOTATIONS.has(keyword))
      throw new Error(`schema-check: keyword "${keyword}" at ${at || '/'} is not supported`);
    if (keyword === 'properties')
      for (const [name, sub] of Object.entries(value as Record<string, Schema>))
        assertKnown(sub, `${at}/properties/${name}`);
    if (keyword === 'items') assertKnown(value as Schema, `${at}/items`);
    if (keyword === 'anyOf')
      for (const [i, sub] of (value as Schema[]).entries()) assertKnown(sub, `${at}/anyOf/${i}`);
    if (
      keyword === 'enum' &&
      !(value as unknown[]).every((v) => v === null || typeof v !== 'object')
    )
      throw new Error(`schema-check: enum at ${at || '/'} must list plain values`);
  }
}

/** JSON's types, as ajv tells them apart. */
function isType(type: string, data: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof data === 'string';
    case 'number':
      return typeof data === 'number';
    case 'integer':
      return typeof data === 'number' && !(data % 1) && !Number.isNaN(data);
    case 'boolean':
      return typeof data === 'boolean';
    case 'null':
      return data === null;
    case 'array':
      return Array.isArray(data);
    case 'object':
      return typeof data === 'object' && data !== null && !Array.isArray(data);
    default:
      throw new Error(`schema-check: type "${type}" is not supported`);
  }
}

/** Characters as ajv counts them: code points (a surrogate pair is one). */
const length = (text: string) => [...text].length;

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

class Checker {
  readonly errors: SchemaError[] = [];
  readonly #patterns = new Map<string, RegExp>();

  #error(keyword: string, at: string, params: Record<string, unknown>, message: string): void {
    this.errors.push({ keyword, instancePath: at, params, message });
  }

  /** Applies `schema` to `data` at `at`, in ajv's order: type, any-type keywords, then by type. */
  check(schema: Schema, data: unknown, at: string): void {
    const types = schema.type === undefined ? [] : ([] as string[]).concat(schema.type as string);
    if (types.length > 0 && !types.some((t) => isType(t, data)))
      this.#error('type', at, { type: schema.type }, `must be ${types.join(',')}`);
    this.#anyType(schema, data, at);
    if (typeof data === 'number') this.#number(schema, data, at);
    else if (typeof data === 'string') this.#string(schema, data, at);
    else if (Array.isArray(data)) this.#array(schema, data, at);
    else if (isType('object', data)) this.#object(schema, data as Record<string, unknown>, at);
  }

  #anyType(schema: Schema, data: unknown, at: string): void {
    if ('const' in schema && data !== schema.const)
      this.#error('const', at, { allowedValue: schema.const }, 'must be equal to constant');
    if (schema.enum && !(schema.enum as unknown[]).includes(data))
      this.#error(
        'enum',
        at,
        { allowedValues: schema.enum },
        'must be equal to one of the allowed values',
      );
    if (schema.anyOf) {
      const before = this.errors.length;
      // Every branch is tried (as ajv with `allErrors`); one that passes drops the others' errors.
      const passed = (schema.anyOf as Schema[]).map((branch) => {
        const count = this.errors.length;
        this.check(branch, data, at);
        return this.errors.length === count;
      });
      if (passed.some(Boolean)) this.errors.length = before;
      else this.#error('anyOf', at, {}, 'must match a schema in anyOf');
    }
  }

  #number(schema: Schema, data: number, at: string): void {
    const { maximum, minimum } = schema as { maximum?: number; minimum?: number };
    if (maximum !== undefined && !(data <= maximum))
      this.#error('maximum', at, { comparison: '<=', limit: maximum }, `must be <= ${maximum}`);
    if (minimum !== undefined && !(data >= minimum))
      this.#error('minimum', at, { comparison: '>=', limit: minimum }, `must be >= ${minimum}`);
  }

  #string(schema: Schema, data: string, at: string): void {
    const { maxLength, minLength, pattern } = schema as {
      maxLength?: number;
      minLength?: number;
      pattern?: string;
    };
    if (maxLength !== undefined && length(data) > maxLength)
      this.#error(
        'maxLength',
        at,
        { limit: maxLength },
        `must NOT have more than ${maxLength} characters`,
      );
    if (minLength !== undefined && length(data) < minLength)
      this.#error(
        'minLength',
        at,
        { limit: minLength },
        `must NOT have fewer than ${minLength} characters`,
      );
    if (pattern !== undefined) {
      let regexp = this.#patterns.get(pattern);
      if (!regexp) {
        regexp = new RegExp(pattern, 'u'); // a pattern, not code: allowed under the flag
        this.#patterns.set(pattern, regexp);
      }
      if (!regexp.test(data))
        this.#error('pattern', at, { pattern }, `must match pattern "${pattern}"`);
    }
  }

  #array(schema: Schema, data: unknown[], at: string): void {
    const { maxItems, minItems, items } = schema as {
      maxItems?: number;
      minItems?: number;
      items?: Schema;
    };
    if (maxItems !== undefined && data.length > maxItems)
      this.#error('maxItems', at, { limit: maxItems }, `must NOT have more than ${maxItems} items`);
    if (minItems !== undefined && data.length < minItems)
      this.#error(
        'minItems',
        at,
        { limit: minItems },
        `must NOT have fewer than ${minItems} items`,
      );
    if (items) for (const [i, item] of data.entries()) this.check(items, item, `${at}/${i}`);
  }

  #object(schema: Schema, data: Record<string, unknown>, at: string): void {
    for (const name of (schema.required as string[] | undefined) ?? [])
      if (data[name] === undefined)
        this.#error(
          'required',
          at,
          { missingProperty: name },
          `must have required property '${name}'`,
        );
    const properties = schema.properties as Record<string, Schema> | undefined;
    for (const [name, sub] of Object.entries(properties ?? {}))
      if (Object.hasOwn(data, name) && data[name] !== undefined)
        this.check(sub, data[name], `${at}/${escapePointer(name)}`);
  }
}

/**
 * The checker of `schema` (its keywords checked now: one it does not apply throws). Like an ajv
 * validate function: call it, then read `errors`.
 */
export function schemaChecker(schema: Schema): SchemaCheck {
  assertKnown(schema, '');
  const check = ((data: unknown) => {
    const checker = new Checker();
    checker.check(schema, data, '');
    check.errors = checker.errors.length > 0 ? checker.errors : null;
    return check.errors === null;
  }) as SchemaCheck;
  check.errors = null;
  return check;
}
